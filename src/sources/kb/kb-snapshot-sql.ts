// The batch of a knowledge base snapshot (migration 013): the rows of one `kb sync` staged with DuckDB's
// appender and written with their kb_snapshots row and the quarantined records as ONE commitBatch (one
// transaction), so a snapshot is whole or absent. Times travel as epoch ms (null when absent) and are staged as
// TIMESTAMPTZ; an id beyond 2^53 (a bigint) is staged as the string of its digits into an `int64` column and
// lands in its BIGINT column exactly. The settings are stored as the JSON text DuckDB's json() makes of them.

import { kbIdForJson, stringifyKbJson } from '../../platform/kb/kb-json.js';
import type { KbId } from '../../platform/kb/kb-schemas.js';
import { type Batch, type BatchTable, defineBatchTable } from '../../warehouse/commit-batch.js';
import type { RejectRow } from '../../warehouse/rows.js';
import type { StageColumn, StagedTable, StageType, StageValue } from '../../warehouse/stage-rows.js';
import { STAGING_TABLES } from '../../warehouse/staging-tables.js';
import { ETL_REJECTS_TABLE } from '../../warehouse/tables.js';
import {
  KB_ACCESS_GROUPS_TABLE,
  KB_API_KEYS_TABLE,
  KB_INTEGRATIONS_TABLE,
  KB_SEGMENTS_TABLE,
  KB_SNAPSHOTS_TABLE,
  KB_SOURCES_TABLE,
} from './tables.js';

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

/** One column of a stage: its name is the target table's column. */
const column = <R>(name: string, type: StageType, value: (row: R) => StageValue): StageColumn<R> => ({
  name,
  type,
  value,
});
const id = (value: KbId | null): number | string | null => (value === null ? null : kbIdForJson(value));
/**
 * An INTEGER column's value, null beyond the 32-bit range: as the from_json statements this batch replaced
 * stored it (nothing bounds these counts and limits above); a NOT NULL column then refuses the snapshot, as before.
 */
const int32 = (value: number | null): number | null =>
  value !== null && value >= -2_147_483_648 && value <= 2_147_483_647 ? value : null;

const SNAPSHOT_STAGE: StagedTable<KbSnapshotRow> = {
  name: 'stage_kb_snapshots',
  columns: [
    column('taken_at', 'timestamptz', (r) => r.taken_at_ms),
    column('base_url', 'varchar', (r) => r.base_url),
    column('project_id', 'int64', (r) => id(r.project_id)),
    column('project_name', 'varchar', (r) => r.project_name),
    column('project_status', 'varchar', (r) => r.project_status),
    column('llm_models', 'varchar[]', (r) => r.llm_models),
    column('indexing_model', 'varchar', (r) => r.indexing_model),
    column('indexing_llm_model', 'varchar', (r) => r.indexing_llm_model),
    column('chunking_method', 'varchar', (r) => r.chunking_method),
    column('search_pipeline', 'varchar', (r) => r.search_pipeline),
    column('generation_model', 'varchar', (r) => r.generation_model),
    column('generation_temperature', 'double', (r) => r.generation_temperature),
    column('rpm_limit', 'integer', (r) => int32(r.rpm_limit)),
    // the JSON text; the INSERT below makes it JSON with json(), as DuckDB writes it
    column('settings', 'varchar', (r) => stringifyKbJson(r.settings)),
    column('with_admin', 'boolean', (r) => r.with_admin),
    column('sources', 'integer', (r) => r.sources),
    column('integrations', 'integer', (r) => r.integrations),
    column('segments', 'integer', (r) => r.segments),
    column('api_keys', 'integer', (r) => r.api_keys),
    column('access_groups', 'integer', (r) => r.access_groups),
    column('rejects', 'integer', (r) => r.rejects),
  ],
};

/** kb_snapshots from its stage: the settings made JSON with json(), the snapshot's id bound. */
const INSERT_SNAPSHOT = `
INSERT INTO kb_snapshots (snapshot_id, ${SNAPSHOT_STAGE.columns.map((c) => `"${c.name}"`).join(', ')})
SELECT $snapshot_id, ${SNAPSHOT_STAGE.columns.map((c) => (c.name === 'settings' ? 'json(settings)' : `"${c.name}"`)).join(', ')}
FROM ${SNAPSHOT_STAGE.name} ORDER BY seq`;

const SOURCES_STAGE: StagedTable<KbSourceRow> = {
  name: 'stage_kb_sources',
  columns: [
    column('source_id', 'int64', (r) => id(r.source_id)),
    column('name', 'varchar', (r) => r.name),
    column('type', 'varchar', (r) => r.type),
    column('status', 'varchar', (r) => r.status),
    column('last_error', 'varchar', (r) => r.last_error),
    column('size_bytes', 'bigint', (r) => r.size_bytes),
    column('size_chars', 'bigint', (r) => r.size_chars),
    column('segments', 'varchar[]', (r) => r.segments),
    column('access_groups', 'varchar[]', (r) => r.access_groups),
    column('version', 'varchar', (r) => r.version),
    column('hash', 'varchar', (r) => r.hash),
    column('created_at', 'timestamptz', (r) => r.created_at_ms),
  ],
};

const INTEGRATIONS_STAGE: StagedTable<KbIntegrationRow> = {
  name: 'stage_kb_integrations',
  columns: [
    column('integration_id', 'int64', (r) => id(r.integration_id)),
    column('name', 'varchar', (r) => r.name),
    column('status', 'varchar', (r) => r.status),
    column('last_error', 'varchar', (r) => r.last_error),
    column('auto_sync', 'boolean', (r) => r.auto_sync),
    column('sync_interval_minutes', 'integer', (r) => int32(r.sync_interval_minutes)),
    column('last_successful_sync_at', 'timestamptz', (r) => r.last_successful_sync_at_ms),
    column('settings_base_url', 'varchar', (r) => r.settings_base_url),
    column('access_groups', 'varchar[]', (r) => r.access_groups),
  ],
};

const SEGMENTS_STAGE: StagedTable<KbSegmentRow> = {
  name: 'stage_kb_segments',
  columns: [
    column('name', 'varchar', (r) => r.name),
    column('sources_count', 'integer', (r) => int32(r.sources_count)),
  ],
};

const API_KEYS_STAGE: StagedTable<KbApiKeyRow> = {
  name: 'stage_kb_api_keys',
  columns: [
    column('api_key_id', 'int64', (r) => id(r.api_key_id)),
    column('project_id', 'int64', (r) => id(r.project_id)),
    column('name', 'varchar', (r) => r.name),
    column('status', 'varchar', (r) => r.status),
    column('owner_login', 'varchar', (r) => r.owner_login),
    column('created_at', 'timestamptz', (r) => r.created_at_ms),
    column('updated_at', 'timestamptz', (r) => r.updated_at_ms),
    column('expires_at', 'timestamptz', (r) => r.expires_at_ms),
    column('last_used_at', 'timestamptz', (r) => r.last_used_at_ms),
  ],
};

const ACCESS_GROUPS_STAGE: StagedTable<KbAccessGroupRow> = {
  name: 'stage_kb_access_groups',
  columns: [
    column('access_group_id', 'int64', (r) => id(r.access_group_id)),
    column('name', 'varchar', (r) => r.name),
    column('files_count', 'integer', (r) => int32(r.files_count)),
    column('integrations_count', 'integer', (r) => int32(r.integrations_count)),
    column('created_at', 'timestamptz', (r) => r.created_at_ms),
    column('updated_at', 'timestamptz', (r) => r.updated_at_ms),
  ],
};

export interface KbSnapshotRows {
  row: KbSnapshotRow;
  /** etl_rejects.project of its rejects: `kb:<project name>`. */
  runProject: string;
  sources: readonly KbSourceRow[];
  integrations: readonly KbIntegrationRow[];
  segments: readonly KbSegmentRow[];
  apiKeys: readonly KbApiKeyRow[];
  accessGroups: readonly KbAccessGroupRow[];
  rejects: readonly KbRejectRow[];
}

/**
 * One snapshot as ONE commitBatch: its kb_snapshots row, the rows of every other kb_ table under its
 * snapshot_id and its rejects (etl_rejects, run_id = snapshot_id, rejected at the snapshot's time) commit
 * together or none does.
 */
export function describeKbSnapshotBatch(snapshot: KbSnapshotRows): Batch {
  const snapshot_id = snapshot.row.snapshot_id;
  const at = new Date(snapshot.row.taken_at_ms);
  const kbTable = <R>(table: Omit<BatchTable<R>, 'constants'>) =>
    defineBatchTable<R>({ ...table, constants: { snapshot_id } });
  const rejects: RejectRow[] = snapshot.rejects.map((r) => ({
    run_id: snapshot_id,
    project: snapshot.runProject,
    endpoint: r.endpoint,
    record_id: r.record_id,
    raw_json: r.raw_json,
    error: r.error,
  }));
  return {
    tables: [
      kbTable({
        spec: KB_SNAPSHOTS_TABLE,
        stage: SNAPSHOT_STAGE,
        rows: [snapshot.row],
        insert: INSERT_SNAPSHOT,
      }),
      kbTable({ spec: KB_SOURCES_TABLE, stage: SOURCES_STAGE, rows: snapshot.sources }),
      kbTable({ spec: KB_INTEGRATIONS_TABLE, stage: INTEGRATIONS_STAGE, rows: snapshot.integrations }),
      kbTable({ spec: KB_SEGMENTS_TABLE, stage: SEGMENTS_STAGE, rows: snapshot.segments }),
      kbTable({ spec: KB_API_KEYS_TABLE, stage: API_KEYS_STAGE, rows: snapshot.apiKeys }),
      kbTable({ spec: KB_ACCESS_GROUPS_TABLE, stage: ACCESS_GROUPS_STAGE, rows: snapshot.accessGroups }),
      defineBatchTable({
        spec: ETL_REJECTS_TABLE,
        stage: STAGING_TABLES.rejects,
        rows: rejects,
        constants: { rejected_at: at },
      }),
    ],
    at,
  };
}
