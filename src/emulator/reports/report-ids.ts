// Identifiers of report tasks and async requests: UUID-shaped, derived from the emulator seed and a
// counter, so a run is repeatable. Invariant: task ids and request ids never collide (distinct salts).
import { hex } from '../prng.js';

function uuidOf(seed: number, n: number, salt: number): string {
  const h = hex(32, seed, n, salt);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const reportTaskId = (seed: number, n: number): string => uuidOf(seed, n, 901);
export const asyncRequestId = (seed: number, n: number): string => uuidOf(seed, n, 902);
