// Which columns of a statuses report hold the delivery statuses and which may hold the message ids, found by
// their values in the report's first rows: the seeds show no column of a report file, and a server may name
// them `questionId`/`status`, `Question ID`/`Status`, `ID вопроса`/`Статус`, in any order, beside columns of
// its own. The header is only a hint, for ties. The id column itself is chosen later, by the window's message
// ids (report-statuses.ts): several columns may look like ids. Invariant: the same header and rows always give
// the same choice; no column that qualifies is a ReportColumnsError saying what was looked for.
import { MESSAGE_STATUSES } from '../../platform/reporter/schemas.js';

/** Data rows the columns are judged on (all of them in a smaller report). */
export const SAMPLE_ROWS = 500;

/** A delivery status: a documented one, or an upper-case word the platform added later (kept as given). */
const STATUS_TOKEN = /^[A-Z][A-Z0-9_]*$/;
const KNOWN_STATUSES: ReadonlySet<string> = new Set(MESSAGE_STATUSES);
/** Header hints, for ties only: a status column's name, then an id column's, best first. */
const STATUS_HINT = /status|статус/i;
const ID_HINTS = [/question|вопрос/i, /message|сообщени/i, /\bid\b|id$/i];
/** Longer values are not ids (a text that happens to have no space). */
const MAX_ID_LENGTH = 200;

export class ReportColumnsError extends Error {}

export interface ColumnChoice {
  /** The position of the status column. */
  status: number;
  /** The positions of the columns that may hold the message ids, the likeliest by their header first. */
  ids: number[];
}

/** Whether a non-empty value can be a delivery status. */
export const isStatusValue = (value: string): boolean => STATUS_TOKEN.test(value);

/** The rank of a header name among the id hints (lower is likelier; the hints' count when none matches). */
export function idHintRank(name: string | undefined): number {
  const rank = ID_HINTS.findIndex((hint) => hint.test(name ?? ''));
  return rank < 0 ? ID_HINTS.length : rank;
}

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

/** Every value present, distinct, short and without white space: a column that may hold ids. */
function isIdLike(values: readonly string[]): boolean {
  const seen = new Set<string>();
  for (const value of values) {
    if (value === '' || value.length > MAX_ID_LENGTH || /\s/.test(value) || seen.has(value)) return false;
    seen.add(value);
  }
  return values.length > 0;
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
  const ids: number[] = [];
  for (let position = 0; position < width; position++)
    if (position !== status.position && isIdLike(columnOf(sample, position))) ids.push(position);
  if (ids.length === 0)
    throw new ReportColumnsError(
      `no column holds message ids (a value in every row, distinct, without spaces) in its first ${sample.length} rows; the header: ${shown(header)}`,
    );
  // a stable sort: by the header's hint, then left to right
  ids.sort((a, b) => idHintRank(header[a]) - idHintRank(header[b]));
  return { status: status.position, ids };
}
