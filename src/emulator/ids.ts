// Identifiers of emulated records: UUID-shaped strings that carry their own index, so a session,
// message or client is found again from its id alone (and a forged id is rejected by regenerating it).
import { hash32, hex } from './prng.js';

function indexGroups(index: number): string {
  const h = index.toString(16).padStart(8, '0');
  return `${h.slice(0, 4)}-${h.slice(4, 8)}`;
}

export function sessionIdOf(seed: number, i: number): string {
  return `${hex(8, seed, i, 100)}-${indexGroups(i)}-${hex(4, seed, i, 101)}-${hex(12, seed, i, 102)}`;
}

export function parseSessionId(seed: number, id: string): number | undefined {
  const m = /^[0-9a-f]{8}-([0-9a-f]{4})-([0-9a-f]{4})-[0-9a-f]{4}-[0-9a-f]{12}$/.exec(id);
  if (!m) return undefined;
  const i = Number.parseInt(m[1]! + m[2]!, 16);
  return sessionIdOf(seed, i) === id ? i : undefined;
}

export function questionIdOf(seed: number, i: number, k: number): string {
  return `${hex(8, seed, i, k, 200)}-${indexGroups(i)}-${k.toString(16).padStart(4, '0')}-${hex(12, seed, i, k, 201)}`;
}

export function parseQuestionId(seed: number, id: string): { i: number; k: number } | undefined {
  const m = /^[0-9a-f]{8}-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-[0-9a-f]{12}$/.exec(id);
  if (!m) return undefined;
  const i = Number.parseInt(m[1]! + m[2]!, 16);
  const k = Number.parseInt(m[3]!, 16);
  return questionIdOf(seed, i, k) === id ? { i, k } : undefined;
}

/** A client id in the form its channel uses; unique because it embeds the client index. */
export function clientIdOf(seed: number, channel: string, clientIndex: number): string {
  const h = hash32(seed, clientIndex, 300);
  switch (channel) {
    case 'telegram':
      return String(200_000_000 + clientIndex * 17 + (h % 17));
    case 'vk':
      return String(10_000_000 + clientIndex * 13 + (h % 13));
    case 'viber':
      return `${hex(6, seed, clientIndex, 301)}${clientIndex.toString(36)}Vb${hex(8, seed, clientIndex, 302)}==`;
    case 'resterisk':
      return `79${String(100_000_000 + clientIndex * 7 + (h % 7)).slice(-9)}`;
    case 'chatapi':
      return `user-${clientIndex.toString(36)}-${hex(6, seed, clientIndex, 303)}`;
    default:
      return `${hex(8, seed, clientIndex, 304)}-${clientIndex.toString(16).padStart(8, '0')}`;
  }
}
