// The table registry: every warehouse table, the warehouse's own first (src/warehouse/core-tables.ts), then
// each source's tables.ts in SOURCES order. The Parquet lake, ClickHouse and the retention job read it: a
// table added to a source's tables is exported (or retained) without touching their code.

import { CHATAPI_TABLES } from '../chatapi/tables.js';
import { EtlError } from '../errors.js';
import { KB_TABLES } from '../kb/tables.js';
import { PROMPTER_TABLES } from '../prompter/tables.js';
import { REPORTER_TABLES } from '../sync/tables.js';
import { CORE_TABLES } from '../warehouse/core-tables.js';
import type { TableSpec } from '../warehouse/table-spec.js';
import { WEBHOOKS_TABLES } from '../webhooks/tables.js';
import type { SourceUnit } from './source-unit.js';

/** The core tables followed by each unit's, in order; a name given twice is a mistake and throws. */
export function collectTables(
  core: readonly TableSpec[],
  units: readonly Pick<SourceUnit, 'id' | 'tables'>[],
) {
  const tables = [...core, ...units.flatMap((u) => u.tables)];
  const seen = new Set<string>();
  for (const t of tables) {
    if (seen.has(t.name))
      throw new EtlError('sources.duplicate_table', `the table ${t.name} is registered twice`, {
        kind: 'terminal',
      });
    seen.add(t.name);
  }
  return tables;
}

/**
 * Each source's tables, in SOURCES order (the layering lets this file import the sources' tables, not the
 * source registry: test/sources/table-registry.test.ts checks it equals SOURCES' tables).
 */
export const TABLES: readonly TableSpec[] = collectTables(CORE_TABLES, [
  { id: 'reporter', tables: REPORTER_TABLES },
  { id: 'chatapi', tables: CHATAPI_TABLES },
  { id: 'webhooks', tables: WEBHOOKS_TABLES },
  { id: 'prompter', tables: PROMPTER_TABLES },
  { id: 'kb', tables: KB_TABLES },
]);
