// The summary prints and reads well (issue "For the people who use it", item 3). A 7-day and a 1-day summary of
// a synced emulator dataset, converted to PDF by LibreOffice, take no more pages than the layout promises (the
// KPIs one page, two charts a page, each table a page per 30 rows) and no chart is cut across two pages;
// every font is named; headers align with their numbers; a one-day summary charts sessions by hour; the funnel
// chart shows telegram's Read as n/a; ticks and values share one number format; a multi-year axis shows years.
import { mkdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { inflateRawSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReport } from '../../reports/index.js';
import { sessionsChart } from '../../reports/summary/period-tables.js';
import { computeStats } from '../../src/analysis/stats/compute-stats.js';
import type { PeriodUnit } from '../../src/analysis/stats/stats-report.js';
import { readDataBasis } from '../../src/report/data-basis.js';
import { MIN_PRINT_SCALE } from '../../src/report/print-layout.js';
import { renderChartSvg } from '../../src/report/render-chart-svg.js';
import type { ChartSpec, ReportContext } from '../../src/report/report-definition.js';
import { charactersFor } from '../../src/report/text-lines.js';
import { CHARTS_PER_PAGE } from '../../src/report/write-memory-workbook.js';
import { writeReport } from '../../src/report/write-report.js';
import { convertToPdf, SOFFICE } from '../helpers/soffice.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';
import { readWorkbook, sheetNamed } from './read-workbook.js';

const inCi = process.env['CI'] === 'true';
const TZ = 'Europe/Moscow';
const WEEK_FROM = Date.parse('2026-10-25T00:00:00+03:00');
const DAY_FROM = Date.parse('2026-10-31T00:00:00+03:00');
const TO = Date.parse('2026-11-01T00:00:00+03:00');
/** Data rows a printed table page holds at least (Letter or A4 landscape, 15 pt rows, 100 % or smaller). */
const ROWS_PER_PAGE = 30;

/** The files of an xlsx (a zip), name → bytes, from its central directory. */
function unzip(bytes: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = bytes.readUInt32LE(end + 16);
  for (let i = bytes.readUInt16LE(end + 10); i > 0; i -= 1) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const local = bytes.readUInt32LE(at + 42);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = bytes.subarray(start, start + bytes.readUInt32LE(at + 20));
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString();
    files.set(name, bytes.readUInt16LE(at + 10) === 8 ? inflateRawSync(data) : data);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return files;
}

/**
 * The drawing operators of each page of a PDF written by LibreOffice: every page object (`/Type/Page`, not
 * `/Pages`) names its content stream, which is deflated.
 */
function pdfPageContents(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const pages = [...text.matchAll(/\/Type\s*\/Page(?![s\w])[\s\S]*?\/Contents (\d+) 0 R/g)];
  return pages.map((m) => {
    const object = text.search(new RegExp(`(^|[\\r\\n])${m[1]} 0 obj\\b`));
    const header = text.indexOf('stream', object) + 'stream'.length;
    const start = header + (text[header] === '\r' ? 2 : 1);
    const raw = pdf.subarray(start, text.indexOf('endstream', start));
    return text.slice(object, header).includes('FlateDecode')
      ? inflateSync(raw).toString('latin1')
      : raw.toString('latin1');
  });
}

/**
 * The images a page shows, as the share of each image's height inside the page's clip (LibreOffice draws
 * the neighbouring chart too, clipped away: share 0): 1 is a whole chart, between 0 and 1 a cut one.
 */
function imageShares(content: string): number[] {
  const shares: number[] = [];
  let clip: [number, number] = [-Infinity, Infinity];
  const ops =
    /([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re\s+W\*? n|[-\d.]+ 0 0 ([-\d.]+) [-\d.]+ ([-\d.]+) cm\s+\/\w+ Do/g;
  for (const m of content.matchAll(ops)) {
    if (m[1] !== undefined) clip = [Number(m[2]), Number(m[2]) + Number(m[4])];
    else {
      const [bottom, height] = [Number(m[6]), Number(m[5])];
      const shown = Math.max(0, Math.min(clip[1], bottom + height) - Math.max(clip[0], bottom));
      shares.push(Math.round((shown / height) * 100) / 100);
    }
  }
  return shares;
}

/** The workbooks printed to PDF by one soffice (it starts in seconds: one call for all), in their order. */
async function toPdfs(dir: string, workbooks: readonly string[]): Promise<Buffer[]> {
  const said = await convertToPdf(workbooks, {
    outDir: join(dir, 'pdf'),
    profileDir: join(dir, 'lo-profile'),
    timeoutMs: 180_000,
  });
  expect(said.match(/convert .* -> .*\.pdf/g)).toHaveLength(workbooks.length);
  return workbooks.map((workbook) =>
    readFileSync(join(dir, 'pdf', basename(workbook).replace(/\.xlsx$/, '.pdf'))),
  );
}

if (!SOFFICE && !inCi)
  console.warn('printable-summary.test.ts: soffice not found, the PDF checks are skipped');

describe('the summary prints and reads well', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      emulator: { sessions: 400, days: 7 },
      env: { REPORTER_SAFETY_LAG_MINUTES: '0', REPORTER_HISTORY_DAYS: '8' },
    });
    expect((await h.sync()).status).toBe('success');
    mkdirSync(join(h.dir, 'pdf'), { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** The summary of [from, TO), written once for the tests that read it (the same warehouse, the same file). */
  const summaries = new Map<number, ReturnType<typeof writeSummary>>();
  const summary = (from: number) => {
    if (!summaries.has(from)) summaries.set(from, writeSummary(from));
    return summaries.get(from)!;
  };
  const writeSummary = (from: number) =>
    h.withWarehouse((warehouse) =>
      writeReport({
        warehouse,
        report: findReport('summary'),
        from,
        to: TO,
        tz: TZ,
        outDir: join(h.dir, 'out'),
      }),
    );

  /** The summary's charts as `report summary` builds them for [from, TO): the scorecard's first. */
  const builtCharts = (from: number) =>
    h.withWarehouse(async (warehouse) => {
      const stats = (start: number, end: number, period: PeriodUnit = 'day') =>
        computeStats(warehouse, {
          from: start,
          to: end,
          timeZone: TZ,
          period,
          top: 10,
          catchAllClass: '/CatchAll',
        });
      const basis = await readDataBasis(warehouse, 'reporter', ['shop-bot'], TZ);
      const context: ReportContext = {
        warehouse,
        from,
        to: TO,
        projects: ['shop-bot'],
        tz: TZ,
        stats: (period: PeriodUnit = 'day') => stats(from, TO, period),
        statsOf: stats,
        basis: async () => basis,
        periodOptions: '',
        streamSql: () => {
          throw new Error('the summary streams no SQL');
        },
        // no unhandled run stored: the scorecard says how to make one
        querySql: async () => [],
      };
      const built = await findReport('summary').build(context);
      const cover = (built.cover?.blocks ?? []).flatMap((b) => ('chart' in b ? [b.chart] : []));
      return [...cover, ...(built.charts ?? [])];
    });

  it.skipIf(!SOFFICE && !inCi)(
    'printed: the scorecard 1 page with its chart, KPIs 1 page, two charts a page and never cut, each table a page per 30 rows',
    async () => {
      const froms = [WEEK_FROM, DAY_FROM];
      const results = [];
      for (const from of froms) results.push(await summary(from));
      const pdfs = await toPdfs(
        h.dir,
        results.map((r) => r.path),
      );
      for (const [i, from] of froms.entries()) {
        const result = results[i]!;
        const { workbook } = await readWorkbook(result.path);
        const images = (workbook.model as unknown as { media: unknown[] }).media.length;
        // the scorecard's sessions chart and the three of the Charts sheet
        expect(images).toBe(4);
        const charts = images - 1;
        const tables = result.sheets.filter((s) => s.name !== 'Summary');
        const chartPages = Math.ceil(charts / CHARTS_PER_PAGE);
        const atMost =
          2 + chartPages + tables.reduce((n, t) => n + Math.max(1, Math.ceil(t.rows / ROWS_PER_PAGE)), 0);
        const pages = pdfPageContents(pdfs[i]!);
        expect(pages.length, `${new Date(from).toISOString()}: ${pages.length} pages`).toBeLessThanOrEqual(
          atMost,
        );
        expect(pages.length).toBeGreaterThanOrEqual(2 + chartPages + tables.length);
        if (from === WEEK_FROM) expect(pages.length).toBeLessThanOrEqual(13);
        // every chart whole on exactly one page: the scorecard's on page 1, then two a page
        const shown = pages.map((p) => imageShares(p).filter((share) => share > 0));
        expect(shown.flat(), 'a chart cut across pages').toEqual(Array(images).fill(1));
        expect(shown[0]).toEqual([1]);
        expect(shown.filter((s) => s.length === CHARTS_PER_PAGE)).toHaveLength(
          Math.floor(charts / CHARTS_PER_PAGE),
        );
      }
    },
    600_000,
  );

  it('a one-day summary charts sessions by hour (not a single dot per day)', async () => {
    const [overTime] = await builtCharts(DAY_FROM);
    expect(overTime!.categories).toHaveLength(24);
    expect(overTime!.categories.slice(0, 2)).toEqual(['00:00', '01:00']);
    const sessions = overTime!.series[0]!.values.reduce((a, b) => a + b, 0);
    expect(sessions).toBe(h.truth(DAY_FROM, TO).sessions);
    const svg = await renderChartSvg(overTime!);
    expect(svg).toContain('Sessions per hour');
    expect(svg).toContain('>12:00<');
    // a week keeps its sessions per day
    const [week] = await builtCharts(WEEK_FROM);
    expect(week!.title).toMatch(/^Sessions per day/);
    expect(week!.categories).toEqual(['10-25', '10-26', '10-27', '10-28', '10-29', '10-30', '10-31']);
  }, 120_000);

  it('the funnel chart shows n/a where the sheet has no Read (telegram), not a bar of 0', async () => {
    const result = await summary(WEEK_FROM);
    // three channels and sixteen columns: a label/value list, a row per column and a column per channel
    const funnel = sheetNamed((await readWorkbook(result.path)).sheets, 'Delivery funnel');
    expect(funnel.header[0]).toBe('Channel');
    const read = funnel.rows.find((r) => r[0] === 'Latest status: read')!;
    const noRead = funnel.header.slice(1).filter((_, i) => read[i + 1] === 'n/a');
    expect(noRead).toContain('telegram');
    const chart = (await builtCharts(WEEK_FROM)).find((c) => c.title.startsWith('Delivery funnel'))!;
    const svg = await renderChartSvg(chart);
    expect(svg.match(/>n\/a</g) ?? []).toHaveLength(noRead.length);
  }, 120_000);

  it('every font is named, one family (Calibri: the header too)', async () => {
    const result = await summary(WEEK_FROM);
    const styles = unzip(readFileSync(result.path)).get('xl/styles.xml')!.toString();
    const fonts = [...styles.matchAll(/<font>([\s\S]*?)<\/font>/g)].map((m) => m[1]!);
    expect(fonts.length).toBeGreaterThan(1);
    for (const font of fonts) expect(font).toMatch(/<name val="Calibri"\/>/);
  }, 120_000);

  it('the KPIs: no autofilter, a median with the decimals of its mean; headers align with their column; widths fit the content', async () => {
    const result = await summary(WEEK_FROM);
    const { sheets } = await readWorkbook(result.path);
    const kpi = sheetNamed(sheets, 'Summary');
    expect(kpi.sheet.autoFilter).toBeUndefined();
    expect(kpi.sheet.getRow(1).getCell(2).alignment?.horizontal).toBe('right');
    const median = kpi.rows.findIndex((r) => r[0] === 'Messages per session: median');
    expect(Number.isInteger(kpi.rows[median]![1])).toBe(true); // the emulator's medians are whole numbers
    // 6.00 beside a mean of 6.40, as stats prints them: never 6 beside 6.4
    expect(kpi.sheet.getRow(median + 2).getCell(2).numFmt).toBe('#,##0.00');
    expect(kpi.sheet.getRow(median + 1).getCell(2).numFmt).toBe('#,##0.00');
    // the names stay left-aligned beside the right-aligned values (a shared style once aligned both)
    expect(kpi.sheet.getRow(median + 2).getCell(1).alignment?.horizontal ?? 'left').toBe('left');
    expect(kpi.sheet.getRow(median + 2).getCell(2).alignment?.horizontal).toBe('right');

    for (const s of sheets.filter((x) => !['Scorecard', 'Summary', 'Charts'].includes(x.name))) {
      expect(s.sheet.pageSetup, s.name).toMatchObject({ orientation: 'landscape', fitToPage: false });
      expect(s.sheet.pageSetup.scale, s.name).toBeGreaterThanOrEqual(MIN_PRINT_SCALE);
      expect(s.sheet.pageSetup.scale, s.name).toBeLessThanOrEqual(100);
      expect(s.sheet.pageSetup.printTitlesRow, s.name).toBe('1:1');
      s.header.forEach((header, i) => {
        const numeric = s.rows.some((r) => typeof r[i] === 'number' || r[i] instanceof Date);
        const alignment = s.sheet.getRow(1).getCell(i + 1).alignment?.horizontal;
        expect(alignment ?? 'left', `${s.name}: ${header}`).toBe(numeric ? 'right' : 'left');
        // the widest text as the printed font sets it (DejaVu Sans's advance widths, in characters of 7 pt)
        const widest = Math.max(...s.rows.map((r) => (typeof r[i] === 'string' ? charactersFor(r[i]) : 0)));
        const width = s.sheet.getColumn(i + 1).width ?? 0;
        expect(width, `${s.name}: ${header}`).toBeGreaterThanOrEqual(Math.min(widest, 50));
        // a header wraps onto at most two lines, its longest word whole
        expect(width, `${s.name}: ${header}`).toBeGreaterThanOrEqual(
          Math.max(...header.split(' ').map((w) => w.length), Math.ceil(header.length / 2)),
        );
      });
    }
  }, 120_000);

  it('axis ticks and bar values share one format (8,000 and 10,000)', async () => {
    const chart: ChartSpec = {
      title: 'Sessions',
      kind: 'bar',
      categories: ['a', 'b'],
      categoryAxis: 'Letter',
      valueAxis: { title: 'Sessions' },
      series: [{ name: 'Sessions', values: [8_000, 11_500] }],
    };
    const labels = [...(await renderChartSvg(chart)).matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map(
      (m) => m[1],
    );
    expect(labels).toEqual(expect.arrayContaining(['8,000', '10,000', '11,500']));
    expect(labels.filter((l) => /\d(k|M)$/.test(l!))).toEqual([]);
  });

  it('a time axis over several years shows the year', async () => {
    const years = await h.withWarehouse((warehouse) =>
      computeStats(warehouse, {
        from: Date.parse('2025-12-20T00:00:00+03:00'),
        to: TO,
        timeZone: TZ,
        period: 'day',
        top: 10,
        catchAllClass: '/CatchAll',
      }),
    );
    const basis = await h.withWarehouse((warehouse) =>
      readDataBasis(warehouse, 'reporter', ['shop-bot'], TZ),
    );
    const perDay = sessionsChart(years, { basis, from: Date.parse('2025-12-20T00:00:00+03:00'), to: TO });
    expect(perDay.categories[0]).toBe('2025-12-20');
    expect(perDay.categories).toContain('2026-01-01');
    // the days before the warehouse's first are not drawn as zeros: n/a, a gap in the line
    expect(perDay.series[0]!.notApplicable?.[0]).toBe(true);
  }, 120_000);
});
