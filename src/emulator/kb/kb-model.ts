// The records the emulated knowledge base keeps (projects, sources, integrations, API keys, chats) and
// their wire forms, with field names exactly as the seed's tables have them. Statuses that move with time
// (sources, integrations, keys) are computed from the record and the clock when a record is written out.
import { createHash } from 'node:crypto';
import { type IndexingRun, indexingStatusAt } from './source-indexing.js';

export const iso = (t: number): string => new Date(t).toISOString();

export type SourceType = 'LINK' | 'TEXT' | 'FILE';

export interface KbSource {
  id: number;
  projectId: number;
  /** Includes the extension; unique within the project. */
  name: string;
  type: SourceType;
  segments: string[];
  accessControlAttributes: string[];
  createdAt: number;
  /** 1 when added, +1 on each replace. */
  version: number;
  /** The text the indexer reads (file bytes as UTF-8). */
  text: string;
  sizeBytes: number;
  /** `sha256:` of the uploaded bytes (files) or of the text. */
  hash: string;
  /** An uploaded file's bytes. */
  content?: Buffer;
  link?: string;
  indexing: IndexingRun;
}

export interface KbIntegration {
  /** An int64: some of the generated ones lie beyond 2^53 (kb-world.ts), written out digit for digit. */
  id: bigint;
  projectId: number;
  name: string;
  autoSync: boolean;
  syncIntervalMinutes: number;
  settings: Record<string, unknown> & { baseUrl: string };
  accessControlAttributes: string[];
  createdAt: number;
  /** ACTIVE integrations sync at createdAt + 1 min, then every interval while autoSync. */
  state: 'ACTIVE' | 'PAUSED' | 'FAILED';
  lastError?: string;
  /** FAILED and PAUSED integrations: their last success, frozen. */
  frozenLastSuccessAt?: number;
}

export interface KbApiKey {
  id: number;
  projectId: number;
  name: string;
  /** The secret (kept by the emulator to authenticate; answered only by create). */
  key: string;
  ownerLogin: string;
  createdAt: number;
  updatedAt: number;
  expiredAt?: number;
  revokedAt?: number;
  lastUsedAt?: number;
}

export interface KbProject {
  id: number;
  name: string;
  createdAt: number;
  updatedAt: number;
  settings: Record<string, unknown>;
  /** Segment names known to the project, even when no source carries them any more. */
  segmentNames: Set<string>;
}

export const sha256 = (content: string | Buffer): string =>
  `sha256:${createHash('sha256').update(content).digest('hex')}`;

export function sourceWire(s: KbSource, now: number): Record<string, unknown> {
  const status = indexingStatusAt(s.indexing, now);
  return {
    id: s.id,
    name: s.name,
    segments: [...s.segments],
    status,
    ...(status === 'FAILED_TO_INGEST' ? { lastError: s.indexing.error } : {}),
    version: String(s.version),
    sizeBytes: s.sizeBytes,
    sizeChars: s.text.length,
    createdAt: iso(s.createdAt),
    type: s.type,
    accessControlAttributes: [...s.accessControlAttributes],
    hash: s.hash,
  };
}

/** The last successful sync of an integration at `now` (undefined before its first). */
export function lastSuccessfulSyncAt(i: KbIntegration, now: number): number | undefined {
  if (i.state !== 'ACTIVE') return i.frozenLastSuccessAt;
  const first = i.createdAt + 60_000;
  if (now < first) return undefined;
  if (!i.autoSync) return first;
  const every = i.syncIntervalMinutes * 60_000;
  return first + Math.floor((now - first) / every) * every;
}

export function integrationWire(i: KbIntegration, now: number): Record<string, unknown> {
  const last = lastSuccessfulSyncAt(i, now);
  return {
    id: i.id,
    name: i.name,
    autoSync: i.autoSync,
    syncIntervalMinutes: i.syncIntervalMinutes,
    settings: { ...i.settings },
    status: i.state,
    ...(i.lastError === undefined ? {} : { lastError: i.lastError }),
    accessControlAttributes: [...i.accessControlAttributes],
    ...(last === undefined ? {} : { lastSuccessfulSyncAt: iso(last) }),
  };
}

export type ApiKeyStatus = 'ACTIVE' | 'EXPIRED' | 'REVOKED';

export function apiKeyStatus(k: KbApiKey, now: number): ApiKeyStatus {
  if (k.revokedAt !== undefined && k.revokedAt <= now) return 'REVOKED';
  if (k.expiredAt !== undefined && k.expiredAt <= now) return 'EXPIRED';
  return 'ACTIVE';
}

/** An API key's metadata; the `key` value only when `withSecret` (the answer of create). */
export function apiKeyWire(k: KbApiKey, now: number, withSecret = false): Record<string, unknown> {
  return {
    id: k.id,
    projectId: k.projectId,
    name: k.name,
    ...(withSecret ? { key: k.key } : {}),
    status: apiKeyStatus(k, now),
    ownerLogin: k.ownerLogin,
    createdAt: iso(k.createdAt),
    updatedAt: iso(k.updatedAt),
    ...(k.expiredAt === undefined ? {} : { expiredAt: iso(k.expiredAt) }),
    ...(k.lastUsedAt === undefined ? {} : { lastUsedAt: iso(k.lastUsedAt) }),
  };
}

export type ProjectStatus = 'CREATED' | 'ACTIVE';

export function projectWire(p: KbProject, status: ProjectStatus): Record<string, unknown> {
  const generation = p.settings['generation'] as { llm?: { model?: string } } | undefined;
  const indexing = p.settings['indexing'] as { llm?: { model?: string } } | undefined;
  const models = [...new Set([generation?.llm?.model, indexing?.llm?.model].filter(Boolean))] as string[];
  return {
    id: p.id,
    name: p.name,
    status,
    resources: { llmModels: models },
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    indexingPriority: 1,
    indexingRetryCount: 2,
  };
}
