// A report as a table: typed columns and a fixed list of rows rendered on demand, batch by batch, as the
// task writes them. Invariants: which rows a report holds (and so totalCount) is fixed when the task is
// created; every rendered row has one cell per column; date-times stay epoch ms until a file is written.
export type CellKind = 'text' | 'number' | 'boolean' | 'datetime';
export type Cell = string | number | boolean | null;

export interface Column {
  name: string;
  kind: CellKind;
}

export interface ReportTable {
  sheet: string;
  columns: readonly Column[];
  /** How many rows the report holds. */
  size: number;
  /** Rows [from, to) of the report. */
  render(from: number, to: number): Cell[][];
}

/** A table over a snapshot of `items` (copied: later changes to the source do not reach the report). */
export function lazyTable<T>(
  sheet: string,
  columns: readonly Column[],
  items: ArrayLike<T>,
  renderOne: (item: T) => Cell[],
): ReportTable {
  const snapshot = Array.from(items);
  return {
    sheet,
    columns,
    size: snapshot.length,
    render: (from, to) => snapshot.slice(from, to).map(renderOne),
  };
}

export const textColumn = (name: string): Column => ({ name, kind: 'text' });
export const numberColumn = (name: string): Column => ({ name, kind: 'number' });
export const booleanColumn = (name: string): Column => ({ name, kind: 'boolean' });
export const dateTimeColumn = (name: string): Column => ({ name, kind: 'datetime' });

/** Epoch ms of an ISO date-time of a wire record, or null when absent. */
export function epochOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

export function textOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : String(value);
}

export function numberOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Label names of a record's `labels` (LabelDto[]), joined by ", ". */
export function labelNames(labels: unknown): string | null {
  if (!Array.isArray(labels) || labels.length === 0) return null;
  return labels.map((label) => String((label as { name?: unknown }).name ?? '')).join(', ');
}

/** "First Last" of a client record, or null. */
export function clientName(client: unknown): string | null {
  if (typeof client !== 'object' || client === null) return null;
  const c = client as { firstName?: unknown; lastName?: unknown };
  const name = [c.firstName, c.lastName].filter((x): x is string => typeof x === 'string').join(' ');
  return name === '' ? null : name;
}

/** Builds one row from a record by column name, through per-column readers. */
export function rowOf(columns: readonly Column[], read: (name: string) => unknown): Cell[] {
  return columns.map((column) => {
    const value = read(column.name);
    switch (column.kind) {
      case 'datetime':
        return typeof value === 'number' ? value : epochOf(value);
      case 'number':
        return numberOf(value);
      case 'boolean':
        return typeof value === 'boolean' ? value : null;
      default:
        return textOf(value);
    }
  });
}
