// Cell values as a report file holds them: date-times become text in the settings' pattern, shifted to
// the task's Timezone offset; other cells pass unchanged. Invariant: the pattern was validated at creation.
import { compileDateTimeFormat } from './date-format.js';
import type { Cell, Column } from './report-table.js';

export function cellFormatter(
  columns: readonly Column[],
  pattern: string,
  timezoneOffset: number,
): (row: readonly Cell[]) => Cell[] {
  const format = compileDateTimeFormat(pattern, 'settings.dateTimeFormat');
  const kinds = columns.map((c) => c.kind);
  return (row) =>
    row.map((cell, n) =>
      kinds[n] === 'datetime' && typeof cell === 'number' ? format(cell, timezoneOffset) : cell,
    );
}
