// Writes a built report (the same sheets and charts its workbook gets) as one self-contained HTML page: a
// title with the report, projects, period and zone, every sheet as a table, every chart as inline SVG, and
// inline CSS (system fonts, print-friendly). Invariants: every text from the data is HTML-escaped, and the
// page makes no request at all (no URL in any src or href: no fonts, no scripts, no images to fetch).
import { writeFile } from 'node:fs/promises';
import { FORMAT_DIGITS, formatCount, formatDecimal, formatShare } from '../text/format-figures.js';
import { createZoneClock, yesNo } from './cell-values.js';
import { escapeHtml, type HtmlCell, renderHtmlTable, replaceNonText } from './html-table.js';
import { renderChartSvg } from './render-chart-svg.js';
import type { CellFormat, CellInput, ChartSpec, SheetSource } from './report-definition.js';

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
}

const NUMERIC: ReadonlySet<CellFormat> = new Set([
  'integer',
  'id',
  'number',
  'decimal3',
  'percent',
  'duration',
]);

// Fits 1280 px: headers wrap between words (never inside one), long texts wrap and keep 16em, identifiers
// (a word of 20 characters or more) break anywhere and keep 8em, numbers never wrap; a wide table is set
// smaller, a turned one has its headers down the side.
const STYLE = `
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: #222; margin: 24px auto; max-width: 1200px; padding: 0 16px; line-height: 1.4; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.2em; margin: 28px 0 8px; }
.meta { color: #555; margin: 0 0 16px; }
table { border-collapse: collapse; margin: 0 0 8px; font-size: 0.85em; max-width: 100%; }
th, td { border: 1px solid #D0D7DE; padding: 3px 6px; vertical-align: top; }
thead th { background: #1F4E79; color: #FFF; text-align: left; }
tbody tr:nth-child(even) { background: #F4F6F8; }
th.num { text-align: right; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td { overflow-wrap: break-word; }
td.long { min-width: 16em; }
td.long, td.token { overflow-wrap: anywhere; }
td.token { min-width: 8em; }
tbody th { text-align: left; font-weight: normal; background: #EAF0F6; }
td.note { color: #777; font-style: italic; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure.chart { margin: 0; flex: 1 1 560px; max-width: 800px; box-sizing: border-box; border: 1px solid #E1E4E8; }
figure.chart svg { display: block; width: 100%; height: auto; }
figure.chart.flow { flex-basis: 100%; min-width: 640px; }
.charts:has(figure.flow) { overflow-x: auto; }
table.wide { font-size: 0.7em; }
table.wide th, table.wide td { padding: 2px 3px; }
section.sheet { overflow-x: auto; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; }
  section.sheet { overflow: visible; break-inside: avoid-page; }
  figure.chart { break-inside: avoid; flex-basis: 45%; }
  figure.chart.flow { flex-basis: 100%; min-width: 0; }
  h2 { break-after: avoid; }
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

/** The page's text: the first sheet (the KPIs), then the charts, then the other sheets. */
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
  const period = `${formatInstant(heading.from, localTime)} – ${formatInstant(heading.to, localTime)}`;
  const projects =
    heading.projects === null ? null : heading.projects.length > 0 ? heading.projects.join(', ') : '(none)';
  const title = `${heading.title}${projects === null ? '' : ` · ${projects}`} · ${period} (${heading.tz})`;
  const figures: string[] = [];
  // a flow chart keeps its labels readable: full width, and on a phone scrolled sideways, never shrunk
  for (const chart of charts)
    figures.push(
      `<figure class="chart${chart.kind === 'sankey' ? ' flow' : ''}">\n${await renderChartSvg(chart)}\n</figure>`,
    );
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
    `<p class="meta">Period ${escapeHtml(period)} (${escapeHtml(heading.tz)}; the end is exclusive)</p>`,
    '</header>',
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

/** A sheet's table: its rows read and formatted as the workbook shows them, laid out by html-table.ts. */
async function renderTable(
  sheet: SheetSource,
  localTime: (t: number) => number,
): Promise<{ html: string; rows: number }> {
  const formats = sheet.columns.map((c) => c.format);
  const rows: HtmlCell[][] = [];
  for await (const chunk of sheet.rows) {
    for (const row of chunk) {
      const rowFormat = sheet.rowFormats?.formats[rows.length];
      rows.push(
        row.map((value, i) => {
          const format =
            sheet.rowFormats?.column === i && rowFormat !== undefined ? rowFormat : (formats[i] ?? 'text');
          return { text: formatCell(value, format, localTime), numeric: NUMERIC.has(format) };
        }),
      );
    }
  }
  const html = renderHtmlTable({
    name: sheet.name,
    columns: sheet.columns.map((c) => ({ header: c.header, numeric: NUMERIC.has(c.format) })),
    rows,
    emptyNote: sheet.emptyNote ?? NO_DATA_NOTE,
  });
  return { html, rows: rows.length };
}

/** A cell as the workbook shows it (thousands separators, 0.0 %, [h]:mm:ss, local date-times in the zone). */
export function formatCell(value: CellInput, format: CellFormat, localTime: (t: number) => number): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'bigint') return formatCell(Number(value), format, localTime);
  if (typeof value === 'boolean') return yesNo(value);
  if (format === 'boolean' && typeof value === 'number') return yesNo(value !== 0);
  if (typeof value === 'string') return value;
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
    default:
      return String(value);
  }
}

/** Milliseconds as [h]:mm:ss (hours past 24 kept, as Excel's [h] does). */
function formatDuration(ms: number): string {
  const total = Math.round(ms / 1000);
  const sign = total < 0 ? '-' : '';
  const s = Math.abs(total);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${sign}${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

function formatInstant(t: number, localTime: (t: number) => number): string {
  return new Date(localTime(t)).toISOString().slice(0, 16).replace('T', ' ');
}
