// --reconcile: compares a downloaded messages or sessions report with the warehouse. The file's first column
// is the questionId / sessionId (after the header row); the warehouse side selects the same period
// ([from, to) on messages.timestamp / sessions.start_time) and the same filters, translated to SQL.
// Invariant: a filter that cannot be translated is refused before the report is requested, never ignored.
import { UsageError } from '../errors.js';
import type { SqlParam } from '../warehouse/warehouse.js';
import type { ReportSpec } from './build-create-request.js';
import { RECONCILE_FILTER_COLUMNS, RECONCILE_SQL } from './platform-report-sql.js';
import { readReportFile } from './read-report-file.js';
import { KIND_INFO } from './report-kinds.js';
import { describePeriod } from './resolve-report-period.js';
import type { WithWarehouse } from './task-store.js';

/** Ids listed per side in a result (the counts are always complete). */
export const LISTED_IDS = 1000;

export interface ReconcileResult {
  target: 'messages' | 'sessions';
  period: string;
  file: string;
  /** Data rows of the file. */
  fileRows: number;
  /** Distinct ids in the file. */
  fileIds: number;
  warehouseIds: number;
  missingInWarehouse: string[];
  missingInWarehouseCount: number;
  missingInFile: string[];
  missingInFileCount: number;
  duplicatesInFile: string[];
  agree: boolean;
  /** The project's sync watermark: rows after it may simply not be synced yet. */
  watermark: string | null;
  notes: string[];
}

const normaliseChannel = (v: string) => v.replace(/_/g, '').toLowerCase();

/** Throws a UsageError when `--reconcile` cannot be honoured for this report. */
export function checkReconcilable(spec: ReportSpec): 'messages' | 'sessions' {
  const target = KIND_INFO[spec.kind].reconcile;
  if (!target)
    throw new UsageError(
      `--reconcile compares messages, daily and sessions reports with the warehouse; ${spec.kind} reports cannot be reconciled`,
    );
  warehouseQuery(target, spec, '');
  return target;
}

function warehouseQuery(
  target: 'messages' | 'sessions',
  spec: ReportSpec,
  project: string,
): { sql: string; params: Record<string, SqlParam> } {
  let sql = RECONCILE_SQL[target];
  const params: Record<string, SqlParam> = {
    project,
    from: new Date(spec.period.from),
    to: new Date(spec.period.to),
  };
  spec.filters.forEach((filter, n) => {
    const column = RECONCILE_FILTER_COLUMNS[filter.key];
    const comparison = filter['comparisonType'] ?? 'CONTAINS';
    const options = filter['options'];
    if (
      !column ||
      filter.type !== 'CHECKBOX' ||
      (column.on !== 'both' && column.on !== target) ||
      (comparison !== 'CONTAINS' && comparison !== 'NOT_CONTAINS') ||
      !Array.isArray(options)
    ) {
      const can = Object.entries(RECONCILE_FILTER_COLUMNS)
        .filter(([, c]) => c.on === 'both' || c.on === target)
        .map(([k]) => `${k}= / ${k}!=`)
        .join(', ');
      throw new UsageError(
        `--reconcile cannot compare the filter ${filter.key} (${filter.type}) with the warehouse for ${target}; it can: ${can}`,
      );
    }
    const name = `f${n}`;
    params[name] = (options as string[]).map((o) =>
      column.normalise ? normaliseChannel(String(o)) : String(o),
    );
    const test = `coalesce(list_contains($${name}, ${column.column}), false)`;
    sql += comparison === 'CONTAINS' ? ` AND ${test}` : ` AND NOT ${test}`;
  });
  return { sql, params };
}

export async function reconcileReport(
  withWarehouse: WithWarehouse,
  spec: ReportSpec,
  file: string,
  project: string,
  watermark: number | undefined,
): Promise<ReconcileResult> {
  const target = checkReconcilable(spec);
  const fileType = file.toLowerCase().endsWith('.csv') ? 'CSV' : 'XLSX';
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  const summary = await readReportFile(file, { fileType, delimiter: ',', withHeader: true }, (cells) => {
    const id = (cells[0] ?? '').trim();
    if (seen.has(id)) duplicates.add(id);
    else seen.add(id);
  });
  const { sql, params } = warehouseQuery(target, spec, project);
  const rows = await withWarehouse((w) => w.query(sql, params));
  const warehouse = new Set(rows.map((r) => String(r['id'])));
  const missingInWarehouse = [...seen].filter((id) => !warehouse.has(id)).sort();
  const missingInFile = [...warehouse].filter((id) => !seen.has(id)).sort();
  const notes: string[] = [];
  const expected = target === 'messages' ? 'questionid' : 'sessionid';
  const first = summary.header?.[0]?.trim().toLowerCase();
  if (first !== undefined && first !== expected)
    notes.push(
      `the file's first column is "${summary.header?.[0]}", expected ${expected}: the comparison may be meaningless`,
    );
  if (watermark !== undefined && watermark < spec.period.to && missingInWarehouse.length > 0)
    notes.push(
      `the warehouse is synced up to ${new Date(watermark).toISOString()}, before the end of the period: run \`reporter-etl sync\` first`,
    );
  return {
    target,
    period: describePeriod(spec.period),
    file,
    fileRows: summary.rows,
    fileIds: seen.size,
    warehouseIds: warehouse.size,
    missingInWarehouse: missingInWarehouse.slice(0, LISTED_IDS),
    missingInWarehouseCount: missingInWarehouse.length,
    missingInFile: missingInFile.slice(0, LISTED_IDS),
    missingInFileCount: missingInFile.length,
    duplicatesInFile: [...duplicates].sort().slice(0, LISTED_IDS),
    agree: missingInWarehouse.length === 0 && missingInFile.length === 0 && duplicates.size === 0,
    watermark: watermark === undefined ? null : new Date(watermark).toISOString(),
    notes,
  };
}
