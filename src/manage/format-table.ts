// Plain-text tables for the management commands' human output (stdout); --json output never goes through
// here. Cells are one line (control characters escaped, a newline shows as \n: src/cli/escape-terminal-text.ts),
// long text is cut with an ellipsis, and the named time columns print as ISO.
import { escapeForTerminal } from '../escape-terminal-text.js';

export interface TableOptions {
  /** Columns to show, in order (default: the keys of the first row). */
  columns?: readonly string[];
  /** The header of each column, in words (default: the column's key). */
  headers?: readonly string[];
  /** Columns holding epoch ms, printed as ISO date-times. */
  times?: readonly string[];
  /** Longest cell, in characters (default 40). */
  maxWidth?: number;
  indent?: string;
}

function cell(value: unknown, isTime: boolean, maxWidth: number): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (isTime && typeof value === 'number') text = new Date(value).toISOString().replace('.000Z', 'Z');
  else if (Array.isArray(value)) text = value.map(String).join(', ');
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  text = escapeForTerminal(text).replace(/\s+/g, ' ').trim();
  return text.length > maxWidth ? `${text.slice(0, maxWidth - 1)}…` : text;
}

/** The rows as aligned lines: a header, then one line per row. */
export function formatTable(rows: readonly Record<string, unknown>[], options: TableOptions = {}): string[] {
  const columns = options.columns ?? Object.keys(rows[0] ?? {});
  const times = new Set(options.times ?? []);
  const maxWidth = options.maxWidth ?? 40;
  const indent = options.indent ?? '  ';
  const cells = rows.map((row) => columns.map((c) => cell(row[c], times.has(c), maxWidth)));
  const headers = columns.map((c, n) => options.headers?.[n] ?? c);
  const widths = headers.map((h, n) =>
    Math.max([...h].length, ...cells.map((r) => [...(r[n] ?? '')].length)),
  );
  const line = (values: readonly string[]) =>
    `${indent}${values.map((v, n) => v + ' '.repeat(Math.max(0, (widths[n] ?? 0) - [...v].length))).join('  ')}`.trimEnd();
  return [line(headers), ...cells.map(line)];
}
