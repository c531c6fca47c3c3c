// Test helper: the knowledge base emulator's ground truth of one project at its clock, read from the
// service's state (never through HTTP or the client), in the shape of the warehouse's snapshot rows, and
// the snapshot's rows read back from the warehouse in the same shape, so a test compares them whole.
import type { Emulator } from '../../src/emulator/emulator.js';
import { apiKeyStatus, lastSuccessfulSyncAt } from '../../src/emulator/kb/kb-model.js';
import { indexingStatusAt } from '../../src/emulator/kb/source-indexing.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';

export interface KbTruth {
  sources: Record<string, unknown>[];
  integrations: Record<string, unknown>[];
  segments: Record<string, unknown>[];
  apiKeys: Record<string, unknown>[];
  accessGroups: Record<string, unknown>[];
}

const opt = (t: number | undefined): number | null => (t === undefined ? null : t);

export function kbTruth(e: Emulator, projectId: number, at: number = e.now()): KbTruth {
  const kb = e.kb;
  const sources = kb.sourcesOf(projectId).map((s) => {
    const status = indexingStatusAt(s.indexing, at);
    return {
      source_id: s.id,
      name: s.name,
      type: s.type,
      status,
      last_error: status === 'FAILED_TO_INGEST' ? (s.indexing.error ?? null) : null,
      size_bytes: s.sizeBytes,
      size_chars: s.text.length,
      segments: [...s.segments],
      access_groups: [...s.accessControlAttributes],
      version: String(s.version),
      hash: s.hash,
      created_at: s.createdAt,
    };
  });
  const integrations = kb
    .integrationsOf(projectId)
    .map((i) => ({
      integration_id: i.id,
      name: i.name,
      status: i.state,
      last_error: i.lastError ?? null,
      auto_sync: i.autoSync,
      sync_interval_minutes: i.syncIntervalMinutes,
      last_successful_sync_at: opt(lastSuccessfulSyncAt(i, at)),
      settings_base_url: i.settings.baseUrl,
    }))
    .sort((a, b) => a.integration_id - b.integration_id);
  const segments = kb
    .segmentsOf(projectId)
    .map((s) => ({ name: s.name, sources_count: s.sourcesCount }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const apiKeys = kb
    .keysOf(projectId)
    .map((k) => ({
      api_key_id: k.id,
      name: k.name,
      status: apiKeyStatus(k, at),
      owner_login: k.ownerLogin,
      expires_at: opt(k.expiredAt),
      last_used_at: opt(k.lastUsedAt),
    }))
    .sort((a, b) => a.api_key_id - b.api_key_id);
  const accessGroups = [...kb.groups.values()]
    .map((g) => ({
      access_group_id: g.id,
      name: g.name,
      files_count: kb.groupSources(g.name, [projectId]).length,
      integrations_count: kb.groupIntegrations(g.name, [projectId]).length,
    }))
    .filter((g) => g.files_count + g.integrations_count > 0)
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
      `SELECT integration_id, name, status, last_error, auto_sync, sync_interval_minutes,
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
