// The knowledge base's warehouse tables: the dated snapshots of `kb sync` (migration 013, every row under its
// snapshot_id, written as one commitBatch). Not exported (no project column); the runs of `kb eval` (014) are
// the kb-eval analysis's (src/analysis/kb-eval/analysis.ts).
// kb_api_keys holds a key's metadata only, never its value (no secret column).
import type { TableSpec } from '../../warehouse/table-spec.js';

export const KB_SNAPSHOTS_TABLE: TableSpec = {
  name: 'kb_snapshots',
  key: ['snapshot_id'],
  write: 'append',
  time: 'taken_at',
  exported: false,
};
export const KB_SOURCES_TABLE: TableSpec = {
  name: 'kb_sources',
  key: ['snapshot_id', 'source_id'],
  write: 'append',
  exported: false,
};
export const KB_INTEGRATIONS_TABLE: TableSpec = {
  name: 'kb_integrations',
  key: ['snapshot_id', 'integration_id'],
  write: 'append',
  exported: false,
};
export const KB_SEGMENTS_TABLE: TableSpec = {
  name: 'kb_segments',
  key: ['snapshot_id', 'name'],
  write: 'append',
  exported: false,
};
export const KB_API_KEYS_TABLE: TableSpec = {
  name: 'kb_api_keys',
  key: ['snapshot_id', 'api_key_id'],
  write: 'append',
  exported: false,
};
export const KB_ACCESS_GROUPS_TABLE: TableSpec = {
  name: 'kb_access_groups',
  key: ['snapshot_id', 'access_group_id'],
  write: 'append',
  exported: false,
};

export const KB_TABLES: readonly TableSpec[] = [
  KB_SNAPSHOTS_TABLE,
  KB_SOURCES_TABLE,
  KB_INTEGRATIONS_TABLE,
  KB_SEGMENTS_TABLE,
  KB_API_KEYS_TABLE,
  KB_ACCESS_GROUPS_TABLE,
];
