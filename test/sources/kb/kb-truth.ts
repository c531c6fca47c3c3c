// Test helper: the knowledge base emulator's ground truth of its main project at its clock (the emulator's
// truth accessors: never through HTTP or the client), in the shape of the warehouse's snapshot rows, and
// the snapshot's rows read back from the warehouse in the same shape, so a test compares them whole.
import type { Emulator } from '../../../src/emulator/emulator.js';
import {
  kbAccessGroupsTruth,
  kbApiKeysTruth,
  kbIntegrationsTruth,
  kbSegmentsTruth,
  kbSourcesTruth,
} from '../../../src/emulator/kb/kb-truth.js';
import { KB_MAIN_PROJECT_ID } from '../../../src/emulator/kb/kb-world.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

export interface KbTruth {
  sources: Record<string, unknown>[];
  integrations: Record<string, unknown>[];
  segments: Record<string, unknown>[];
  apiKeys: Record<string, unknown>[];
  accessGroups: Record<string, unknown>[];
}

const ms = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);
const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The main project's truth at `at` (the emulator's accessors in src/emulator/kb/kb-truth.ts), plus the few
 * fields they leave out read from the service's records (integration base URL, key owner and last use).
 */
export function kbTruth(e: Emulator, at: number = e.now()): KbTruth {
  const kb = e.kb;
  const sources = kbSourcesTruth(e, at).map((s) => ({
    source_id: s.id,
    name: s.name,
    type: s.type,
    status: s.status,
    last_error: s.lastError ?? null,
    size_bytes: s.sizeBytes,
    size_chars: s.sizeChars,
    segments: s.segments,
    access_groups: s.accessControlAttributes,
    version: s.version,
    hash: s.hash,
    created_at: ms(s.createdAt),
  }));
  const integrations = kbIntegrationsTruth(e, at)
    .map((i) => ({
      // int64 ids, some beyond 2^53: compared as the text of their digits
      integration_id: String(i.id),
      name: i.name,
      status: i.status,
      last_error: i.lastError ?? null,
      auto_sync: i.autoSync,
      sync_interval_minutes: i.syncIntervalMinutes,
      last_successful_sync_at: ms(i.lastSuccessfulSyncAt),
      settings_base_url: kb.integration(KB_MAIN_PROJECT_ID, i.id).settings.baseUrl,
    }))
    .sort((a, b) => (BigInt(a.integration_id) < BigInt(b.integration_id) ? -1 : 1));
  const segments = kbSegmentsTruth(e)
    .segments.map((s) => ({ name: s.name, sources_count: s.sourcesCount }))
    .sort(byName);
  const apiKeys = kbApiKeysTruth(e, at)
    .map((k) => {
      const record = kb.keys.find((r) => r.id === k.id)!;
      return {
        api_key_id: k.id,
        name: k.name,
        status: k.status,
        owner_login: record.ownerLogin,
        expires_at: ms(k.expiredAt),
        last_used_at: record.lastUsedAt ?? null,
      };
    })
    .sort((a, b) => a.api_key_id - b.api_key_id);
  // the snapshot asks for the groups of the project's sources and integrations (projectIds): the one every
  // source left is not among them; the generated world's other projects have no sources
  const accessGroups = kbAccessGroupsTruth(e)
    .groups.filter((g) => g.filesCount + g.integrationsCount > 0)
    .map((g) => ({
      access_group_id: g.id,
      name: g.name,
      files_count: g.filesCount,
      integrations_count: g.integrationsCount,
    }))
    .sort((a, b) => a.access_group_id - b.access_group_id);
  return { sources, integrations, segments, apiKeys, accessGroups };
}

/** The rows of one snapshot, in the truth's shape (times as epoch ms). */
export async function snapshotRows(warehouse: Warehouse, snapshotId: string): Promise<KbTruth> {
  const q = (sql: string) => warehouse.query(sql, { id: snapshotId });
  return {
    sources: await q(
      `SELECT source_id, name, type, status, last_error, size_bytes, size_chars, segments, access_groups,
              version, hash, created_at FROM kb_sources WHERE snapshot_id = $id ORDER BY source_id`,
    ),
    integrations: await q(
      `SELECT CAST(integration_id AS VARCHAR) AS integration_id, name, status, last_error, auto_sync, sync_interval_minutes,
              last_successful_sync_at, settings_base_url
       FROM kb_integrations WHERE snapshot_id = $id ORDER BY integration_id`,
    ),
    segments: await q('SELECT name, sources_count FROM kb_segments WHERE snapshot_id = $id ORDER BY name'),
    apiKeys: await q(
      `SELECT api_key_id, name, status, owner_login, expires_at, last_used_at
       FROM kb_api_keys WHERE snapshot_id = $id ORDER BY api_key_id`,
    ),
    accessGroups: await q(
      `SELECT access_group_id, name, files_count, integrations_count
       FROM kb_access_groups WHERE snapshot_id = $id ORDER BY access_group_id`,
    ),
  };
}
