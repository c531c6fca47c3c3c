// --reconcile: compares a downloaded messages or sessions report with the warehouse. The file's id column is
// found by its values, whatever the header says or where it stands (the seeds show no column of a report file):
// of the id-like columns of its first rows (src/platform/reporter/report-columns.ts), the one holding the most
// of the warehouse's ids for the same period ([from, to) on messages.timestamp / sessions.start_time) and the
// same filters, translated to SQL; a tie, or no column holding any, goes to the header saying question /
// session, then to the leftmost. Invariant: a filter that cannot be translated is refused before the report is
// requested, never ignored.
import { UsageError } from '../errors.js';
import {
  chooseIdColumn,
  idLikeColumns,
  MESSAGE_ID_HINTS,
  SAMPLE_ROWS,
  SESSION_ID_HINTS,
} from '../platform/reporter/report-columns.js';
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
  /** The header of the column compared (found by its values), null when the file has no data row. */
  idColumn: string | null;
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

interface IdColumn {
  name: string;
  values: string[];
}

/**
 * The file's id-like columns (judged on its first SAMPLE_ROWS rows), likeliest by `hints` first, with every
 * row's value (trimmed); with no such column, the first column.
 */
async function readIdColumns(
  file: string,
  hints: readonly RegExp[],
): Promise<{ columns: IdColumn[]; rows: number }> {
  const sample: string[][] = [];
  let header: string[] = [];
  let positions: number[] | undefined;
  let columns: IdColumn[] = [];
  const choose = () => {
    const found = idLikeColumns(header, sample, hints);
    positions = found.length > 0 ? found : [0];
    columns = positions.map((p) => ({ name: header[p] ?? `column ${p + 1}`, values: [] }));
    for (const row of sample.splice(0)) keep(row);
  };
  const keep = (cells: string[]) =>
    positions!.forEach((p, n) => {
      columns[n]!.values.push((cells[p] ?? '').trim());
    });
  const summary = await readReportFile(
    file,
    { fileType: 'CSV', delimiter: ',', withHeader: true },
    (cells) => {
      if (positions !== undefined) return keep(cells);
      sample.push(cells.map((cell) => cell.trim()));
      if (sample.length >= SAMPLE_ROWS) choose();
    },
    (cells) => {
      header = cells.map((cell) => cell.trim());
    },
  );
  if (positions === undefined) choose();
  return { columns, rows: summary.rows };
}

export async function reconcileReport(
  withWarehouse: WithWarehouse,
  spec: ReportSpec,
  file: string,
  project: string,
  watermark: number | undefined,
): Promise<ReconcileResult> {
  const target = checkReconcilable(spec);
  const { sql, params } = warehouseQuery(target, spec, project);
  const rows = await withWarehouse((w) => w.query(sql, params));
  const warehouse = new Set(rows.map((r) => String(r['id'])));
  const hints = target === 'messages' ? MESSAGE_ID_HINTS : SESSION_ID_HINTS;
  const file_ = await readIdColumns(file, hints);
  const chosen =
    chooseIdColumn(file_.columns, (c) => c.values.filter((id) => warehouse.has(id)).length) ??
    file_.columns[0];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const id of chosen?.values ?? []) {
    if (seen.has(id)) duplicates.add(id);
    else seen.add(id);
  }
  const missingInWarehouse = [...seen].filter((id) => !warehouse.has(id)).sort();
  const missingInFile = [...warehouse].filter((id) => !seen.has(id)).sort();
  const notes: string[] = [];
  if (file_.rows > 0 && warehouse.size > 0 && missingInWarehouse.length === seen.size)
    notes.push(
      `no column of the file holds an id the warehouse has for the period: its column ${JSON.stringify(chosen?.name ?? '')} was compared, and the comparison may be meaningless`,
    );
  if (watermark !== undefined && watermark < spec.period.to && missingInWarehouse.length > 0)
    notes.push(
      `the warehouse is synced up to ${new Date(watermark).toISOString()}, before the end of the period: run \`reporter-etl sync\` first`,
    );
  return {
    target,
    period: describePeriod(spec.period),
    file,
    fileRows: file_.rows,
    idColumn: chosen?.name ?? null,
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
