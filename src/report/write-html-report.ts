// Writes a built report (the same sheets, charts and cover its workbook gets) as one self-contained HTML page:
// a title with the report, projects, period and zone and when the data was last synced, the cover (the
// summary's scorecard), every sheet as a table, every chart as inline SVG, and inline CSS (system fonts, a
// narrow layout for phones, a print stylesheet). Invariants: every text from the data is HTML-escaped, and the
// page makes no request at all (no URL in any src or href: no fonts, no scripts, no images to fetch).
import { writeFile } from 'node:fs/promises';
import { FORMAT_DIGITS, formatCount, formatDecimal, formatShare } from '../text/format-figures.js';
import { createZoneClock, yesNo } from './cell-values.js';
import { codeInWords } from './code-words.js';
import { describePeriod } from './describe-period.js';
import { escapeHtml, type HtmlCell, renderHtmlTable, replaceNonText } from './html-table.js';
import { renderChartSvg } from './render-chart-svg.js';
import type { CellFormat, CellInput, ChartSpec, CoverPage, SheetSource } from './report-definition.js';

import { NO_DATA_NOTE, type WrittenSheet } from './write-sheets.js';

export interface HtmlReportHeading {
  /** The report's title, e.g. "Summary". */
  title: string;
  /** The Reporter projects it covers; null: a report of no Reporter project (the knowledge base's), no suffix. */
  projects: readonly string[] | null;
  /** Epoch ms, inclusive / exclusive. */
  from: number;
  to: number;
  tz: string;
  /** When the data was last synced ("Last synced 2026-11-01 03:02 (Europe/Moscow)"). */
  synced?: string;
  /** The page the report opens with (the summary's scorecard), at the top. */
  cover?: CoverPage | undefined;
}

const NUMERIC: ReadonlySet<CellFormat> = new Set([
  'integer',
  'id',
  'number',
  'decimal3',
  'percent',
  'duration',
  'countChange',
  'percentChange',
  'pointsChange',
  'msChange',
  'decimal3Change',
]);

// Fits 1280 px: headers wrap between words (never inside one), long texts wrap and keep 16em, identifiers
// (a word of 20 characters or more) break anywhere and keep 8em, numbers never wrap; a wide table is set
// smaller. At 600 px and less (a phone at 390 px) a table of more than two columns is a card per row, each
// value beside its column's name. Printed (A4): one full-width chart a row, nothing under 7 pt (tables 8–9 pt,
// the charts' 11 px labels at 7.3 pt), the cover on its own page, a table of many columns on a landscape page
// (a page the browser would otherwise shrink to fit it, its text with it).
const STYLE = `
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #222; margin: 24px auto; max-width: 1200px; padding: 0 16px; line-height: 1.4; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.2em; margin: 28px 0 8px; }
h3 { font-size: 1.05em; margin: 16px 0 6px; }
.meta { color: #555; margin: 0 0 16px; }
table { border-collapse: collapse; margin: 0 0 8px; font-size: 0.85em; max-width: 100%; }
th, td { border: 1px solid #D0D7DE; padding: 3px 6px; vertical-align: top; }
thead th { background: #1F4E79; color: #FFF; text-align: left; }
tbody tr:nth-child(even) { background: #F4F6F8; }
th.num { text-align: right; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td { overflow-wrap: break-word; }
td.long { min-width: 14em; }
td.long, td.token { overflow-wrap: anywhere; }
td.token { min-width: 8em; }
td.note { color: #777; font-style: italic; }
p.footnote, p.note { color: #555; font-size: 0.85em; margin: 2px 0 4px; }
section.cover { border: 1px solid #D0D7DE; padding: 4px 16px 12px; margin: 0 0 16px; }
section.cover figure.chart { max-width: 800px; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure.chart { margin: 0; flex: 1 1 560px; max-width: 800px; box-sizing: border-box; border: 1px solid #E1E4E8; }
figure.chart svg { display: block; width: 100%; height: auto; }
figure.chart.flow { flex-basis: 100%; overflow-x: auto; }
figure.chart.flow svg { min-width: 640px; }
table.wide { font-size: 0.7em; }
table.wide th, table.wide td { padding: 2px 3px; }
section.sheet { overflow-x: auto; }
@media (max-width: 600px) {
  body { margin: 12px auto; padding: 0 8px; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; }
  table.cards { width: 100%; font-size: 0.85em; }
  table.cards thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  table.cards tr { border: 1px solid #D0D7DE; margin: 0 0 8px; }
  table.cards td { display: flex; justify-content: space-between; gap: 12px; border: none;
    border-top: 1px solid #EEF1F4; text-align: right; white-space: normal; min-width: 0; }
  table.cards td:first-child { border-top: none; }
  table.cards td::before { content: attr(data-label); flex: 0 0 42%; text-align: left; font-weight: 600; color: #444; }
  table.cards td.note::before { content: none; }
  table.cards td.note { text-align: left; }
  td.long, td.token { min-width: 0; }
}
@page { size: A4; margin: 12mm; }
@page landscape { size: A4 landscape; margin: 12mm; }
@media print {
  body { margin: 0; max-width: none; padding: 0; font-size: 10pt; }
  h1 { font-size: 16pt; }
  table { font-size: 9pt; }
  table.wide { font-size: 8pt; }
  td.long { min-width: 10em; }
  td.token { min-width: 6em; }
  td.num { white-space: normal; }
  section.sheet { overflow: visible; break-inside: avoid-page; }
  section.sheet.across { page: landscape; }
  .charts { display: block; }
  figure.chart { width: 100%; max-width: none; margin: 0 0 8pt; break-inside: avoid; }
  figure.chart.flow { overflow: visible; }
  figure.chart.flow svg { min-width: 0; }
  section.cover { border: none; padding: 0; break-after: page; }
  h2, h3 { break-after: avoid; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; }
  tbody tr:nth-child(even) { background: none; }
  thead th { background: none; color: #000; border-bottom: 2px solid #000; }
}
`;

/**
 * Writes the page to `path` (the caller's temporary name: it renames the file into place when this resolves).
 * Returns the sheets as the workbook writers count them (data rows; the "no data" note is not a row).
 */
export async function writeHtmlReport(
  path: string,
  sheets: readonly SheetSource[],
  charts: readonly ChartSpec[],
  heading: HtmlReportHeading,
): Promise<WrittenSheet[]> {
  const { html, written } = await renderHtmlReport(sheets, charts, heading);
  await writeFile(path, html, 'utf8');
  return written;
}

/** The page's text: the cover, the first sheet (the KPIs), then the charts, then the other sheets. */
export async function renderHtmlReport(
  sheets: readonly SheetSource[],
  charts: readonly ChartSpec[],
  heading: HtmlReportHeading,
): Promise<{ html: string; written: WrittenSheet[] }> {
  const localTime = createZoneClock(heading.tz);
  const written: WrittenSheet[] = [];
  const tables: string[] = [];
  for (const sheet of sheets) {
    const { html, rows } = await renderTable(sheet, localTime);
    tables.push(html);
    written.push({ name: sheet.name, rows, source: sheet.name });
  }
  const period = describePeriod(heading.from, heading.to, heading.tz);
  const projects =
    heading.projects === null ? null : heading.projects.length > 0 ? heading.projects.join(', ') : '(none)';
  const title = `${heading.title}${projects === null ? '' : ` · ${projects}`} · ${period}`;
  const figures: string[] = [];
  for (const chart of charts) figures.push(await chartFigure(chart));
  const synced = heading.synced === undefined ? '' : ` · ${escapeHtml(heading.synced)}`;
  const html = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="generator" content="reporter-etl">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${escapeHtml(heading.title)}${projects === null ? '' : `: ${escapeHtml(projects)}`}</h1>`,
    `<p class="meta">Period ${escapeHtml(period)}${synced}</p>`,
    '</header>',
    ...(heading.cover ? [await renderCover(heading.cover, localTime)] : []),
    ...tables.slice(0, 1),
    ...(figures.length > 0 ? ['<section class="charts" aria-label="Charts">', ...figures, '</section>'] : []),
    ...tables.slice(1),
    '</body>',
    '</html>',
    '',
  ].join('\n');
  // the charts' SVG holds the categories' text too (ECharts escapes markup, not controls)
  return { html: replaceNonText(html), written };
}

async function chartFigure(chart: ChartSpec): Promise<string> {
  // a flow chart keeps its labels readable: full width, and on a phone scrolled sideways, never shrunk
  const flow = chart.kind === 'sankey' ? ' flow' : '';
  return `<figure class="chart${flow}">\n${await renderChartSvg(chart)}\n</figure>`;
}

/** The cover page: its tables, chart and notes one under the other. */
async function renderCover(cover: CoverPage, localTime: (t: number) => number): Promise<string> {
  const parts: string[] = [`<section class="cover" aria-label="${escapeHtml(cover.name)}">`];
  parts.push(`<h2>${escapeHtml(cover.name)}</h2>`);
  for (const block of cover.blocks) {
    if ('note' in block) parts.push(`<p class="note">${escapeHtml(block.note)}</p>`);
    else if ('chart' in block) parts.push(await chartFigure(block.chart));
    else parts.push((await renderTable(block.table, localTime, 3)).html);
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** A sheet's table: its rows read and formatted as the workbook shows them, laid out by html-table.ts. */
async function renderTable(
  sheet: SheetSource,
  localTime: (t: number) => number,
  level: 2 | 3 = 2,
): Promise<{ html: string; rows: number }> {
  const formats = sheet.columns.map((c) => c.format);
  // a column for the workbook only (an id, a whole text printed cut) is not on the page either
  const shown = sheet.columns.flatMap((c, i) => (c.print === false ? [] : [i]));
  const rows: HtmlCell[][] = [];
  for await (const chunk of sheet.rows) {
    for (const row of chunk) {
      const own = sheet.cellFormats?.[rows.length];
      rows.push(
        shown.map((i) => {
          const value = row[i];
          const format = own?.[i] ?? formats[i] ?? 'text';
          const text = formatCell(value, format, localTime);
          const code = format === 'code' && typeof value === 'string' && text !== value;
          return { text, numeric: NUMERIC.has(format), ...(code ? { title: value } : {}) };
        }),
      );
    }
  }
  const html = renderHtmlTable({
    name: sheet.name,
    columns: shown
      .map((i) => sheet.columns[i]!)
      .map((c) => ({ header: c.header, numeric: NUMERIC.has(c.format) })),
    rows,
    emptyNote: sheet.emptyNote ?? NO_DATA_NOTE,
    footnotes: sheet.footnotes ?? [],
    level,
  });
  return { html, rows: rows.length };
}

/** A cell as the workbook shows it (thousands separators, 0.0 %, [h]:mm:ss, local date-times in the zone). */
export function formatCell(value: CellInput, format: CellFormat, localTime: (t: number) => number): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'bigint') return formatCell(Number(value), format, localTime);
  if (typeof value === 'boolean') return yesNo(value);
  if (format === 'boolean' && typeof value === 'number') return yesNo(value !== 0);
  if (typeof value === 'string') return format === 'code' ? codeInWords(value) : value;
  if (value instanceof Uint8Array) return `<${value.length} bytes>`;
  if (typeof value !== 'number') return JSON.stringify(value);
  if (!Number.isFinite(value)) return '';
  switch (format) {
    case 'integer':
      return formatCount(value);
    case 'id':
      return String(Math.trunc(value));
    case 'number':
      return formatDecimal(value, FORMAT_DIGITS.number);
    case 'decimal3':
      return formatDecimal(value, FORMAT_DIGITS.decimal3);
    case 'percent':
      return formatShare(value);
    case 'datetime':
      return new Date(localTime(value)).toISOString().slice(0, 19).replace('T', ' ');
    case 'date':
      return new Date(value).toISOString().slice(0, 10);
    case 'duration':
      return formatDuration(value);
    case 'countChange':
      return signed(value, formatCount(Math.abs(value)));
    case 'percentChange':
      return signed(value, formatShare(Math.abs(value)));
    case 'pointsChange':
      return `${signed(value, formatDecimal(Math.abs(value) * 100, 1))} pp`;
    case 'msChange':
      return `${signed(value, formatCount(Math.abs(value)))} ms`;
    case 'decimal3Change':
      return signed(value, formatDecimal(Math.abs(value), FORMAT_DIGITS.decimal3));
    default:
      return String(value);
  }
}

/** A change's sign before its figure, as the workbook's formats write it: +8.3%, -3, 0. */
function signed(value: number, figure: string): string {
  // a change that rounds to zero has no sign
  return /[1-9]/.test(figure) ? `${value > 0 ? '+' : '-'}${figure}` : figure;
}

/** Milliseconds as [h]:mm:ss (hours past 24 kept, as Excel's [h] does). */
function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const sign = total < 0 ? '-' : '';
  const s = Math.abs(total);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${sign}${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}
