// The knowledge base's warehouse tables: the dated snapshots of `kb sync` (migration 013, every row under its
// snapshot_id) and the runs of `kb eval` (014). Not exported (no project column). kb_api_keys holds a key's
// metadata only, never its value (no secret column).
import type { TableSpec } from '../warehouse/table-spec.js';

export const KB_TABLES: readonly TableSpec[] = [
  { name: 'kb_snapshots', key: ['snapshot_id'], write: 'append', time: 'taken_at', exported: false },
  { name: 'kb_sources', key: ['snapshot_id', 'source_id'], write: 'append', exported: false },
  { name: 'kb_integrations', key: ['snapshot_id', 'integration_id'], write: 'append', exported: false },
  { name: 'kb_segments', key: ['snapshot_id', 'name'], write: 'append', exported: false },
  { name: 'kb_api_keys', key: ['snapshot_id', 'api_key_id'], write: 'append', exported: false },
  { name: 'kb_access_groups', key: ['snapshot_id', 'access_group_id'], write: 'append', exported: false },
  { name: 'kb_eval_runs', key: ['run_id'], write: 'replace-by-key', exported: false },
  { name: 'kb_eval_questions', key: ['run_id', 'seq'], write: 'replace-by-key', exported: false },
  { name: 'kb_eval_chunks', key: ['run_id', 'seq', 'rank'], write: 'append', exported: false },
];
