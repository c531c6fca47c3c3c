// The warehouse's own tables, written by no source: its runs, state and rejects, and the write-backs and tasks
// of the commands (labels, Pushgate pushes, platform reports). Operational: none is exported (one
// machine's work, not the data). src/sources/tables.ts puts them before the sources' tables.

import { ROLLUP_TABLE_SPECS } from './rollup-tables.js';
import type { TableSpec } from './table-spec.js';
import { ETL_REJECTS_TABLE } from './tables.js';

export const CORE_TABLES: readonly TableSpec[] = [
  // the migrations applied (warehouse-sql.ts creates it before the first)
  { name: 'schema_migrations', key: ['version'], write: 'append', exported: false },
  { name: 'etl_runs', key: ['run_id'], write: 'replace-by-key', exported: false },
  { name: 'etl_state', key: ['project', 'key'], write: 'replace-by-key', exported: false },
  ETL_REJECTS_TABLE,
  { name: 'platform_report_tasks', key: ['id'], write: 'replace-by-key', exported: false },
  { name: 'label_writes', key: ['write_id'], write: 'replace-by-key', exported: false },
  // a pushback id is a secret (docs/pushgate.md): never exported, whatever `exported` says
  {
    name: 'pushgate_sends',
    key: ['event_id'],
    write: 'replace-by-key',
    exported: false,
    secretColumns: ['pushback_id'],
  },
  // the statistics' rollups, kept by every window commit (derived: recomputed from the raw rows)
  ...ROLLUP_TABLE_SPECS,
];
