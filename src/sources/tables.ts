// The table registry: every warehouse table, the warehouse's own first (src/warehouse/core-tables.ts), then
// each source unit's tables in SOURCES order, then each analysis unit's in ANALYSES order. The Parquet lake,
// ClickHouse and the retention job read it: a table added to a unit's tables is exported (or retained) without
// touching their code.

import { ANALYSES } from '../analysis/registry.js';
import { EtlError } from '../errors.js';
import { CORE_TABLES } from '../warehouse/core-tables.js';
import type { TableSpec } from '../warehouse/table-spec.js';
import { SOURCES } from './registry.js';
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

/** The core's tables, then each source's in SOURCES order, then each analysis's in ANALYSES order. */
export const TABLES: readonly TableSpec[] = collectTables(CORE_TABLES, [...SOURCES, ...ANALYSES]);
