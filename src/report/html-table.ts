// Lays out one sheet of an HTML report as a <table> that fits a 1280 px page: a table of many columns is set
// smaller (table.wide); one of many columns and only a few rows (a figure per column, a row per project) is
// turned, a row per column, so that it reads down the page instead of running off its side; a long text is
// marked (td.long) to keep a readable width, and a long word (td.token) may break anywhere. Cells come
// formatted (write-html-report.ts formats them).

export interface HtmlCell {
  text: string;
  /** Right-aligned, never wrapped (a number, a percentage, a duration). */
  numeric: boolean;
}

export interface HtmlTable {
  name: string;
  columns: { header: string; numeric: boolean }[];
  rows: HtmlCell[][];
  /** Shown in place of the rows when there is none. */
  emptyNote: string;
}

/** A table of more columns than this is set smaller (table.wide). */
export const WIDE_TABLE_COLUMNS = 10;
/** A table of more columns than this and at most TURNED_TABLE_ROWS rows is turned: a row per column. */
export const TURNED_TABLE_COLUMNS = 12;
export const TURNED_TABLE_ROWS = 3;
/** A text cell of this many characters or more keeps a readable width (td.long), not one word per line. */
export const LONG_TEXT = 40;
/** A word of this many characters or more (an identifier, a URL, JSON) may break anywhere (td.token). */
export const LONG_WORD = 20;

export function renderHtmlTable(table: HtmlTable): string {
  const turned =
    table.columns.length > TURNED_TABLE_COLUMNS &&
    table.rows.length > 0 &&
    table.rows.length <= TURNED_TABLE_ROWS;
  const [head, body] = turned ? turnedLayout(table) : plainLayout(table);
  return [
    `<section class="sheet">`,
    `<h2>${escapeHtml(table.name)}</h2>`,
    !turned && table.columns.length > WIDE_TABLE_COLUMNS ? '<table class="wide">' : '<table>',
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>`,
    ...body,
    `</tbody>`,
    `</table>`,
    `</section>`,
  ].join('\n');
}

/** A column per field, a row per record. */
function plainLayout(table: HtmlTable): [string, string[]] {
  const head = table.columns
    .map((c) => `<th scope="col"${c.numeric ? ' class="num"' : ''}>${escapeHtml(c.header)}</th>`)
    .join('');
  const body = table.rows.map((row) => `<tr>${row.map(cell).join('')}</tr>`);
  if (body.length === 0)
    body.push(
      `<tr><td class="note" colspan="${table.columns.length}">${escapeHtml(table.emptyNote)}</td></tr>`,
    );
  return [head, body];
}

/** A row per field (its header first), a column per record (headed by the record's first field). */
function turnedLayout(table: HtmlTable): [string, string[]] {
  const [first, ...rest] = table.columns;
  const head = [
    `<th scope="col">${escapeHtml(first?.header ?? '')}</th>`,
    ...table.rows.map((row) => `<th scope="col" class="num">${escapeHtml(row[0]?.text ?? '')}</th>`),
  ].join('');
  const body = rest.map(
    (column, c) =>
      `<tr><th scope="row">${escapeHtml(column.header)}</th>${table.rows.map((row) => cell(row[c + 1] ?? { text: '', numeric: false })).join('')}</tr>`,
  );
  return [head, body];
}

function cell(c: HtmlCell): string {
  return `<td${cellClass(c)}>${escapeHtml(c.text)}</td>`;
}

function cellClass(c: HtmlCell): string {
  if (c.numeric) return ' class="num"';
  if (c.text.length >= LONG_TEXT) return ' class="long"';
  return c.text.split(/\s+/).some((word) => word.length >= LONG_WORD) ? ' class="token"' : '';
}

/**
 * The characters a page never shows as text: C0 controls but tab, line feed and carriage return (NUL among
 * them), DEL, C1, U+FFFE and U+FFFF. They become U+FFFD, as the workbooks' cells have them (excel-limits.ts):
 * a NUL is a parse error a browser handles in its own way, and a C1 reference (`&#128;`) shows another character.
 */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/g;

/** `text` with every character a page cannot show as text replaced by U+FFFD. */
export function replaceNonText(text: string): string {
  return text.replace(NOT_TEXT, '\uFFFD');
}

/** Text for a page: markup characters as character references, controls as U+FFFD. */
export function escapeHtml(s: string): string {
  return replaceNonText(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
