// The statements of a knowledge base snapshot (migration 013): the rows of one `kb sync` as JSON relations,
// inserted with their kb_snapshots row and the quarantined records in one transaction (Warehouse.execute),
// so a snapshot is whole or absent. Times travel as epoch ms (null when absent) and become TIMESTAMPTZ here;
// an id beyond 2^53 travels as the string of its digits (kb-json.ts) and lands in its BIGINT column exactly.
import type { SqlStatement } from '../warehouse/warehouse.js';
import { stringifyKbJson } from './kb-json.js';
import type { KbId } from './kb-schemas.js';

export interface KbSnapshotRow {
  snapshot_id: string;
  taken_at_ms: number;
  base_url: string;
  project_id: KbId;
  project_name: string;
  project_status: string | null;
  llm_models: string[] | null;
  indexing_model: string | null;
  indexing_llm_model: string | null;
  chunking_method: string | null;
  search_pipeline: string | null;
  generation_model: string | null;
  generation_temperature: number | null;
  rpm_limit: number | null;
  settings: unknown;
  with_admin: boolean;
  sources: number;
  integrations: number;
  segments: number;
  api_keys: number | null;
  access_groups: number | null;
  rejects: number;
}

export interface KbSourceRow {
  source_id: KbId;
  name: string;
  type: string | null;
  status: string;
  last_error: string | null;
  size_bytes: number | null;
  size_chars: number | null;
  segments: string[] | null;
  access_groups: string[] | null;
  version: string | null;
  hash: string | null;
  created_at_ms: number | null;
}

export interface KbIntegrationRow {
  integration_id: KbId;
  name: string;
  status: string;
  last_error: string | null;
  auto_sync: boolean | null;
  sync_interval_minutes: number | null;
  last_successful_sync_at_ms: number | null;
  settings_base_url: string | null;
  access_groups: string[] | null;
}

export interface KbSegmentRow {
  name: string;
  sources_count: number;
}

export interface KbApiKeyRow {
  api_key_id: KbId;
  project_id: KbId | null;
  name: string;
  status: string;
  owner_login: string | null;
  created_at_ms: number | null;
  updated_at_ms: number | null;
  expires_at_ms: number | null;
  last_used_at_ms: number | null;
}

export interface KbAccessGroupRow {
  access_group_id: KbId;
  name: string;
  files_count: number | null;
  integrations_count: number | null;
  created_at_ms: number | null;
  updated_at_ms: number | null;
}

export interface KbRejectRow {
  endpoint: string;
  record_id: string | null;
  raw_json: string;
  error: string;
}

const ts = (column: string) => `make_timestamptz(x.${column} * 1000)`;
const rowsOf = (type: Record<string, string | string[]>) =>
  `(SELECT unnest(from_json($rows, '${JSON.stringify([type])}')) AS x)`;

const INSERT_SNAPSHOT = `
INSERT INTO kb_snapshots
SELECT $snapshot_id, ${ts('taken_at_ms')}, x.base_url, x.project_id, x.project_name, x.project_status,
       x.llm_models, x.indexing_model, x.indexing_llm_model, x.chunking_method, x.search_pipeline,
       x.generation_model, x.generation_temperature, x.rpm_limit, x.settings, x.with_admin, x.sources,
       x.integrations, x.segments, x.api_keys, x.access_groups, x.rejects
FROM ${rowsOf({
  taken_at_ms: 'BIGINT',
  base_url: 'VARCHAR',
  project_id: 'BIGINT',
  project_name: 'VARCHAR',
  project_status: 'VARCHAR',
  llm_models: ['VARCHAR'],
  indexing_model: 'VARCHAR',
  indexing_llm_model: 'VARCHAR',
  chunking_method: 'VARCHAR',
  search_pipeline: 'VARCHAR',
  generation_model: 'VARCHAR',
  generation_temperature: 'DOUBLE',
  rpm_limit: 'INTEGER',
  settings: 'JSON',
  with_admin: 'BOOLEAN',
  sources: 'INTEGER',
  integrations: 'INTEGER',
  segments: 'INTEGER',
  api_keys: 'INTEGER',
  access_groups: 'INTEGER',
  rejects: 'INTEGER',
})} t`;

const INSERT_SOURCES = `
INSERT INTO kb_sources
SELECT $snapshot_id, x.source_id, x.name, x.type, x.status, x.last_error, x.size_bytes, x.size_chars,
       x.segments, x.access_groups, x.version, x.hash, ${ts('created_at_ms')}
FROM ${rowsOf({
  source_id: 'BIGINT',
  name: 'VARCHAR',
  type: 'VARCHAR',
  status: 'VARCHAR',
  last_error: 'VARCHAR',
  size_bytes: 'BIGINT',
  size_chars: 'BIGINT',
  segments: ['VARCHAR'],
  access_groups: ['VARCHAR'],
  version: 'VARCHAR',
  hash: 'VARCHAR',
  created_at_ms: 'BIGINT',
})} t`;

const INSERT_INTEGRATIONS = `
INSERT INTO kb_integrations
SELECT $snapshot_id, x.integration_id, x.name, x.status, x.last_error, x.auto_sync, x.sync_interval_minutes,
       ${ts('last_successful_sync_at_ms')}, x.settings_base_url, x.access_groups
FROM ${rowsOf({
  integration_id: 'BIGINT',
  name: 'VARCHAR',
  status: 'VARCHAR',
  last_error: 'VARCHAR',
  auto_sync: 'BOOLEAN',
  sync_interval_minutes: 'INTEGER',
  last_successful_sync_at_ms: 'BIGINT',
  settings_base_url: 'VARCHAR',
  access_groups: ['VARCHAR'],
})} t`;

const INSERT_SEGMENTS = `
INSERT INTO kb_segments
SELECT $snapshot_id, x.name, x.sources_count
FROM ${rowsOf({ name: 'VARCHAR', sources_count: 'INTEGER' })} t`;

const INSERT_API_KEYS = `
INSERT INTO kb_api_keys
SELECT $snapshot_id, x.api_key_id, x.project_id, x.name, x.status, x.owner_login, ${ts('created_at_ms')},
       ${ts('updated_at_ms')}, ${ts('expires_at_ms')}, ${ts('last_used_at_ms')}
FROM ${rowsOf({
  api_key_id: 'BIGINT',
  project_id: 'BIGINT',
  name: 'VARCHAR',
  status: 'VARCHAR',
  owner_login: 'VARCHAR',
  created_at_ms: 'BIGINT',
  updated_at_ms: 'BIGINT',
  expires_at_ms: 'BIGINT',
  last_used_at_ms: 'BIGINT',
})} t`;

const INSERT_ACCESS_GROUPS = `
INSERT INTO kb_access_groups
SELECT $snapshot_id, x.access_group_id, x.name, x.files_count, x.integrations_count, ${ts('created_at_ms')},
       ${ts('updated_at_ms')}
FROM ${rowsOf({
  access_group_id: 'BIGINT',
  name: 'VARCHAR',
  files_count: 'INTEGER',
  integrations_count: 'INTEGER',
  created_at_ms: 'BIGINT',
  updated_at_ms: 'BIGINT',
})} t`;

const INSERT_REJECTS = `
INSERT INTO etl_rejects (run_id, project, endpoint, record_id, raw_json, error, rejected_at)
SELECT $snapshot_id, $project, x.endpoint, x.record_id, x.raw_json, x.error, $rejected_at
FROM ${rowsOf({ endpoint: 'VARCHAR', record_id: 'VARCHAR', raw_json: 'VARCHAR', error: 'VARCHAR' })} t`;

/** One snapshot's statements: all of them commit together or none does. */
export function storeKbSnapshot(snapshot: {
  row: KbSnapshotRow;
  /** etl_rejects.project of its rejects: `kb:<project name>`. */
  runProject: string;
  sources: readonly KbSourceRow[];
  integrations: readonly KbIntegrationRow[];
  segments: readonly KbSegmentRow[];
  apiKeys: readonly KbApiKeyRow[];
  accessGroups: readonly KbAccessGroupRow[];
  rejects: readonly KbRejectRow[];
}): SqlStatement[] {
  const snapshot_id = snapshot.row.snapshot_id;
  const statements: SqlStatement[] = [
    { sql: INSERT_SNAPSHOT, params: { snapshot_id, rows: stringifyKbJson([snapshot.row]) } },
  ];
  const add = (sql: string, rows: readonly unknown[]) => {
    if (rows.length > 0) statements.push({ sql, params: { snapshot_id, rows: stringifyKbJson(rows) } });
  };
  add(INSERT_SOURCES, snapshot.sources);
  add(INSERT_INTEGRATIONS, snapshot.integrations);
  add(INSERT_SEGMENTS, snapshot.segments);
  add(INSERT_API_KEYS, snapshot.apiKeys);
  add(INSERT_ACCESS_GROUPS, snapshot.accessGroups);
  if (snapshot.rejects.length > 0)
    statements.push({
      sql: INSERT_REJECTS,
      params: {
        snapshot_id,
        project: snapshot.runProject,
        rows: stringifyKbJson(snapshot.rejects),
        rejected_at: new Date(snapshot.row.taken_at_ms),
      },
    });
  return statements;
}
