// Plain-text tables for the management commands' human output (stdout); --json output never goes through
// here. Cells are one line (control characters escaped, a newline shows as \n: src/cli/escape-terminal-text.ts),
// long text is cut with an ellipsis, the named count columns print with thousands separators, the named time
// columns print as ISO in the given zone (UTC by default), and columns are aligned by display width (an emoji takes two columns: src/text/display-width.ts).
import { cutToWidth, displayWidth, padToWidth } from '../text/display-width.js';
import { escapeForTerminal } from '../text/escape-terminal-text.js';
import { formatLocalTime } from '../time/format-local-time.js';

export interface TableOptions {
  /** Columns to show, in order (default: the keys of the first row). */
  columns?: readonly string[];
  /** The header of each column, in words (default: the column's key). */
  headers?: readonly string[];
  /** Columns holding epoch ms, printed as ISO date-times. */
  times?: readonly string[];
  /** The zone those times are printed in, with its offset (default UTC, printed with Z). */
  timeZone?: string;
  /** Columns holding counts, printed with thousands separators (17,997); ids and other numbers print as they are. */
  counts?: readonly string[];
  /** Longest cell, in columns (default 40). */
  maxWidth?: number;
  /** Columns never cut (`runs --wide`'s error: the whole reason). */
  uncut?: readonly string[];
  /**
   * Longest line, in columns: the last column is cut to fit (to no fewer than 10 columns). Default: no limit.
   */
  maxLineWidth?: number;
  indent?: string;
}

type CellKind = 'time' | 'count' | 'plain';

function cell(value: unknown, kind: CellKind, maxWidth: number, timeZone: string): string {
  if (value === null || value === undefined) return '';
  let text: string;
  // to the second: what a person reads in a table (--json keeps the milliseconds)
  if (kind === 'time' && typeof value === 'number') text = formatLocalTime(value, timeZone);
  else if (kind === 'count' && (typeof value === 'number' || typeof value === 'bigint'))
    text = value.toLocaleString('en-US');
  else if (Array.isArray(value)) text = value.map(String).join(', ');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  text = escapeForTerminal(text).replace(/\s+/g, ' ').trim();
  return cutToWidth(text, maxWidth);
}

/** Cuts the last column so that a line takes at most `maxLineWidth` columns. */
function fitLastColumn(cells: string[][], widths: number[], gaps: number, maxLineWidth: number): void {
  const last = widths.length - 1;
  const others = widths.slice(0, last).reduce((sum, w) => sum + w, 0) + gaps;
  const room = Math.max(10, maxLineWidth - others);
  if ((widths[last] ?? 0) <= room) return;
  widths[last] = room;
  for (const row of cells) row[last] = cutToWidth(row[last] ?? '', room);
}

/** The rows as aligned lines: a header, then one line per row. */
export function formatTable(rows: readonly Record<string, unknown>[], options: TableOptions = {}): string[] {
  const columns = options.columns ?? Object.keys(rows[0] ?? {});
  const times = new Set(options.times ?? []);
  const counts = new Set(options.counts ?? []);
  const kinds = columns.map((c): CellKind => (times.has(c) ? 'time' : counts.has(c) ? 'count' : 'plain'));
  const maxWidth = options.maxWidth ?? 40;
  const indent = options.indent ?? '  ';
  const timeZone = options.timeZone ?? 'UTC';
  const uncut = new Set(options.uncut ?? []);
  const cells = rows.map((row) =>
    columns.map((c, n) =>
      cell(row[c], kinds[n]!, uncut.has(c) ? Number.POSITIVE_INFINITY : maxWidth, timeZone),
    ),
  );
  const headers = columns.map((c, n) => options.headers?.[n] ?? c);
  const widths = headers.map((h, n) =>
    Math.max(displayWidth(h), ...cells.map((r) => displayWidth(r[n] ?? ''))),
  );
  if (options.maxLineWidth !== undefined && columns.length > 0)
    fitLastColumn(cells, widths, indent.length + 2 * (columns.length - 1), options.maxLineWidth);
  const line = (values: readonly string[]) =>
    `${indent}${values.map((v, n) => padToWidth(v, widths[n] ?? 0)).join('  ')}`.trimEnd();
  return [line(headers), ...cells.map(line)];
}
