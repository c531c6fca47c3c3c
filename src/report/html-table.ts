// Lays out one sheet of an HTML report as a <table> that fits a 1280 px page and a 390 px phone: a table of
// many columns is set smaller (table.wide); a long text is marked (td.long) to keep a readable width, a long
// word (td.token) may break anywhere; on a narrow screen a table of more than two columns reads as cards (a
// card per row, each value under its column's name: data-label). A platform code shown in words keeps the
// code as its cell's title. Cells come formatted (write-html-report.ts formats them); few-record tables come
// turned already (table-rules.ts).

export { TURNED_TABLE_COLUMNS, TURNED_TABLE_ROWS } from './table-rules.js';

export interface HtmlCell {
  text: string;
  /** Right-aligned, never wrapped (a number, a percentage, a duration). */
  numeric: boolean;
  /** Shown on hover: the platform's code of a value shown in words. */
  title?: string;
}

export interface HtmlTable {
  name: string;
  columns: { header: string; numeric: boolean }[];
  rows: HtmlCell[][];
  /** Shown in place of the rows when there is none. */
  emptyNote: string;
  /** Lines under the table (what n/a means). */
  footnotes?: readonly string[];
  /** The heading's level: 2 for a sheet, 3 for a table of the cover page. */
  level?: 2 | 3;
}

/** A table of more columns than this is set smaller (table.wide). */
export const WIDE_TABLE_COLUMNS = 10;
/** A text cell of this many characters or more keeps a readable width (td.long), not one word per line. */
export const LONG_TEXT = 40;
/** A word of this many characters or more (an identifier, a URL, JSON) may break anywhere (td.token). */
export const LONG_WORD = 20;
/** A table of more columns than this reads as cards on a narrow screen. */
export const CARD_TABLE_COLUMNS = 2;
/** A table of more columns than this prints on a landscape page (section.across). */
export const LANDSCAPE_TABLE_COLUMNS = 7;

export function renderHtmlTable(table: HtmlTable): string {
  const level = table.level ?? 2;
  const classes = [
    table.columns.length > WIDE_TABLE_COLUMNS ? 'wide' : '',
    table.columns.length > CARD_TABLE_COLUMNS ? 'cards' : '',
  ].filter((c) => c !== '');
  const head = table.columns
    .map((c) => `<th scope="col"${c.numeric ? ' class="num"' : ''}>${escapeHtml(c.header)}</th>`)
    .join('');
  const body = table.rows.map(
    (row) => `<tr>${row.map((c, i) => cell(c, table.columns[i]?.header ?? '')).join('')}</tr>`,
  );
  const footnotes = (table.footnotes ?? []).map((note) => `<p class="footnote">${escapeHtml(note)}</p>`);
  // no row: the note alone, one sentence across the page (a header of 25 columns over it would shrink the page)
  if (body.length === 0)
    return [
      '<section class="sheet">',
      `<h${level}>${escapeHtml(table.name)}</h${level}>`,
      `<p class="note">${escapeHtml(table.emptyNote)}</p>`,
      ...footnotes,
      '</section>',
    ].join('\n');
  const across = table.columns.length > LANDSCAPE_TABLE_COLUMNS ? ' across' : '';
  return [
    `<section class="sheet${across}">`,
    `<h${level}>${escapeHtml(table.name)}</h${level}>`,
    classes.length > 0 ? `<table class="${classes.join(' ')}">` : '<table>',
    `<thead><tr>${head}</tr></thead>`,
    `<tbody>`,
    ...body,
    `</tbody>`,
    `</table>`,
    ...footnotes,
    `</section>`,
  ].join('\n');
}

function cell(c: HtmlCell, header: string): string {
  const title = c.title === undefined ? '' : ` title="${escapeHtml(c.title)}"`;
  return `<td${cellClass(c)} data-label="${escapeHtml(header)}"${title}>${escapeHtml(c.text)}</td>`;
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
