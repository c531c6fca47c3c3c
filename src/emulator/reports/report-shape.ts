// What the seeds leave open about a report file, varied so that the product cannot lean on the emulator's own
// guesses: the header's names (the API's field names, English display names or Russian ones: header-names.ts),
// whether CSV is written at all (`csv`: yes; refused, a create asking CSV answered 400; ignored, XLSX served
// whatever was asked), the column order, two extra columns (a numeric id of the server's own and a status that
// is not a delivery status), and a CSV's BOM and delimiter (a server writing `;` whatever was asked). Set at
// start (options.reportShape, `reporter-etl emulator --report-header ...`) or while running
// (GET|POST /__emulator/report-shape). Invariant: the rows and their values are the same in every shape; only
// the names, the order, the extra columns and the file's form change.
import { badParameter } from '../api-error.js';
import { hash32 } from '../prng.js';
import { HEADER_LANGUAGES, type HeaderLanguage, headerName } from './header-names.js';
import type { Cell, Column, ReportTable } from './report-table.js';
import type { ReportSettings } from './report-types.js';

export const CSV_MODES = ['yes', 'refused', 'ignored'] as const;
export const COLUMN_ORDERS = ['api', 'reversed', 'shuffled'] as const;

export interface ReportShape {
  header: HeaderLanguage;
  csv: (typeof CSV_MODES)[number];
  columnOrder: (typeof COLUMN_ORDERS)[number];
  extraColumns: boolean;
  /** A CSV file starts with a UTF-8 byte order mark. */
  csvBom: boolean;
  /** The delimiter every CSV file uses, whatever the create asked; null: the asked one. */
  csvDelimiter: string | null;
}

export const DEFAULT_REPORT_SHAPE: ReportShape = {
  header: 'api',
  csv: 'yes',
  columnOrder: 'api',
  extraColumns: false,
  csvBom: false,
  csvDelimiter: null,
};

/** Values of the extra status-like column: upper-case tokens, none of them a delivery status. */
const TICKET_STATES = ['OPEN', 'PENDING', 'CLOSED'] as const;

/**
 * The settings a create asked, as this server honours them: CSV refused (a 400 naming settings.fileType) or
 * ignored (XLSX), the delimiter replaced. Called before the task exists.
 */
export function shapeSettings(settings: ReportSettings, shape: ReportShape): ReportSettings {
  if (settings.fileType !== 'CSV') return settings;
  if (shape.csv === 'refused')
    throw badParameter('settings.fileType', 'this server writes XLSX report files only');
  if (shape.csv === 'ignored') return { ...settings, fileType: 'XLSX' };
  return shape.csvDelimiter === null ? settings : { ...settings, delimiter: shape.csvDelimiter };
}

/** A seeded permutation of 0..n-1 (Fisher–Yates over hash32). */
function shuffled(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = hash32(seed, i, 900) % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** A 15-digit id of a row from its first cell (the record's own id): the same row, the same id. */
function numericIdOf(cell: Cell): string {
  const text = String(cell ?? '');
  const codes = Array.from(text, (c) => c.charCodeAt(0));
  const high = 100_000 + (hash32(...codes, 901) % 900_000);
  const low = hash32(...codes, 902) % 1_000_000_000;
  return `${high}${String(low).padStart(9, '0')}`;
}

/** The table as this server writes it: the columns renamed, the extra ones added, then reordered. */
export function shapeTable(table: ReportTable, shape: ReportShape, seed: number): ReportTable {
  if (shape.header === 'api' && shape.columnOrder === 'api' && !shape.extraColumns) return table;
  const extras: Column[] = shape.extraColumns
    ? [
        { name: 'messageId', kind: 'text' },
        { name: 'ticketState', kind: 'text' },
      ]
    : [];
  const all = [...table.columns, ...extras];
  const order =
    shape.columnOrder === 'reversed'
      ? all.map((_, n) => all.length - 1 - n)
      : shape.columnOrder === 'shuffled'
        ? shuffled(all.length, seed)
        : all.map((_, n) => n);
  const columns = order.map((n) => ({ ...all[n]!, name: headerName(all[n]!.name, shape.header) }));
  /** The row with the extra columns (a ticket state by the row's place in the report). */
  const extend = (row: Cell[], index: number): Cell[] =>
    shape.extraColumns
      ? [...row, numericIdOf(row[0] ?? null), TICKET_STATES[hash32(seed, index, 903) % 3]!]
      : row;
  return {
    sheet: table.sheet,
    columns,
    size: table.size,
    render: (from, to) =>
      table.render(from, to).map((row, n) => {
        const full = extend(row, from + n);
        return order.map((k) => full[k]!);
      }),
  };
}

/** A control request's body read as changes of the shape, each checked (a 400 naming the field at fault). */
export function readReportShape(body: unknown): Partial<ReportShape> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badParameter('body', 'expected a JSON object');
  const fields = body as Record<string, unknown>;
  const out: Partial<ReportShape> = {};
  const oneOf = <T extends string>(key: keyof ReportShape, values: readonly T[]): T | undefined => {
    const value = fields[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value))
      throw badParameter(key, `expected one of ${values.join(', ')}, got ${JSON.stringify(value)}`);
    return value as T;
  };
  for (const key of Object.keys(fields))
    if (!(key in DEFAULT_REPORT_SHAPE))
      throw badParameter(key, `unknown setting: expected ${Object.keys(DEFAULT_REPORT_SHAPE).join(', ')}`);
  const header = oneOf('header', HEADER_LANGUAGES);
  const csv = oneOf('csv', CSV_MODES);
  const columnOrder = oneOf('columnOrder', COLUMN_ORDERS);
  if (header !== undefined) out.header = header;
  if (csv !== undefined) out.csv = csv;
  if (columnOrder !== undefined) out.columnOrder = columnOrder;
  for (const key of ['extraColumns', 'csvBom'] as const) {
    const value = fields[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean')
      throw badParameter(key, `expected true or false, got ${JSON.stringify(value)}`);
    out[key] = value;
  }
  const delimiter = fields['csvDelimiter'];
  if (delimiter !== undefined) {
    if (delimiter !== null && !isDelimiter(delimiter))
      throw badParameter('csvDelimiter', 'expected one character (not a quote or a line break), or null');
    out.csvDelimiter = delimiter as string | null;
  }
  return out;
}

/** One character that can separate CSV fields. */
export function isDelimiter(value: unknown): value is string {
  return typeof value === 'string' && [...value].length === 1 && !['"', '\r', '\n'].includes(value);
}
