// Which columns of a statuses report hold the delivery statuses and which may hold the message ids, found by
// their values in the report's first rows: the seeds show no column of a report file, and a server may name
// them `questionId`/`status`, `Question ID`/`Status`, `ID вопроса`/`Статус`, in any order, beside columns of
// its own. The header is only a hint, for ties. The id column itself is chosen later, by the window's message
// ids (report-statuses.ts; the id-like columns: src/platform/reporter/report-columns.ts): several columns may
// look like ids. Invariant: the same header and rows always give the same choice; no column that qualifies is
// a ReportColumnsError saying what was looked for.
import { idLikeColumns, MESSAGE_ID_HINTS, SAMPLE_ROWS } from '../../platform/reporter/report-columns.js';
import { MESSAGE_STATUSES } from '../../platform/reporter/schemas.js';

export { SAMPLE_ROWS };

/** A delivery status: a documented one, or an upper-case word the platform added later (kept as given). */
const STATUS_TOKEN = /^[A-Z][A-Z0-9_]*$/;
const KNOWN_STATUSES: ReadonlySet<string> = new Set(MESSAGE_STATUSES);
/** A status column's header, for ties only. */
const STATUS_HINT = /status|статус/i;

export class ReportColumnsError extends Error {}

export interface ColumnChoice {
  /** The position of the status column. */
  status: number;
  /** The positions of the columns that may hold the message ids, the likeliest by their header first. */
  ids: number[];
}

/** Whether a non-empty value can be a delivery status. */
export const isStatusValue = (value: string): boolean => STATUS_TOKEN.test(value);

/** The column's values in the sample ('' for a cell a row lacks). */
const columnOf = (sample: readonly (readonly string[])[], position: number): string[] =>
  sample.map((row) => row[position] ?? '');

/** Documented statuses in the column, or -1 when a non-empty value is not a status or none is documented. */
function statusScore(values: readonly string[]): number {
  let known = 0;
  for (const value of values) {
    if (value === '') continue;
    if (!STATUS_TOKEN.test(value)) return -1;
    if (KNOWN_STATUSES.has(value)) known++;
  }
  return known > 0 ? known : -1;
}

const shown = (header: readonly string[]) => header.map((name) => JSON.stringify(name)).join(', ');

/**
 * The status column (the most documented statuses; ties: a header saying status, then the leftmost) and the
 * id-like columns. `sample`: the first data rows, every field.
 */
export function findStatusColumns(
  header: readonly string[],
  sample: readonly (readonly string[])[],
): ColumnChoice {
  const width = Math.max(header.length, ...sample.map((row) => row.length));
  let status: { position: number; score: number; hinted: boolean } | undefined;
  for (let position = 0; position < width; position++) {
    const score = statusScore(columnOf(sample, position));
    if (score < 0) continue;
    const hinted = STATUS_HINT.test(header[position] ?? '');
    if (status === undefined || score > status.score || (score === status.score && hinted && !status.hinted))
      status = { position, score, hinted };
  }
  if (status === undefined)
    throw new ReportColumnsError(
      `no column holds delivery statuses (${MESSAGE_STATUSES.join(', ')}, or other upper-case words beside at least one of them) in its first ${sample.length} rows; the header: ${shown(header)}`,
    );
  const ids = idLikeColumns(header, sample, MESSAGE_ID_HINTS, new Set([status.position]));
  if (ids.length === 0)
    throw new ReportColumnsError(
      `no column holds message ids (a value in every row, nearly all distinct, without spaces) in its first ${sample.length} rows; the header: ${shown(header)}`,
    );
  return { status: status.position, ids };
}
