// Every report as an analyst prints it (issues 33 and 45): each report of the registry (reports/index.ts, so a
// report added later is checked with no edit here) over one day, 7 days, 90 days (the warehouse starting in
// the middle: 20 days synced) and a day with no data, from one warehouse built once: the XLSX converted to PDF
// by LibreOffice in one call, the HTML pages printed by headless Chromium, and every page read back with
// poppler. On every page: no two words printed over each other, no word under 7 pt; a workbook's pages name
// their report, period, page and last sync; a no-data note whole on one page; no change or trend where the
// previous period is not synced; `sessions` of one day 25 rows a page or more; `messages` with no nearly
// blank page; the summary's page 1 is its scorecard, its figures the emulator's. With REPORTER_DOCS_PICTURE=1
// it also writes docs/images/summary-scorecard.png (page 1 of the 7-day summary) for docs/reports.md.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS } from '../../reports/index.js';
import { runKbEval } from '../../src/analysis/kb-eval/run-kb-eval.js';
import { loadConfig } from '../../src/config.js';
import { kbKeys, kbQuestions } from '../../src/emulator/kb/kb-truth.js';
import { silentLogger } from '../../src/log.js';
import { createKbClient } from '../../src/platform/kb/kb-client.js';
import { describePeriod, previousPeriod } from '../../src/report/describe-period.js';
import type { ReportDefinition } from '../../src/report/report-definition.js';
import { MAX_CONTENT_WIDTH } from '../../src/report/sheet-layout.js';
import { writeReport } from '../../src/report/write-report.js';
import { syncKb } from '../../src/sources/kb/sync-kb.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { findChromium, launchChromium } from '../helpers/chromium.js';
import {
  imagesOnPage,
  overlappingWords,
  type Page,
  POPPLER,
  pageCount,
  pageText,
  pdfPages,
  printHtml,
} from '../helpers/printed-pages.js';
import { recordUnhandled } from '../helpers/record-unhandled.js';
import { convertToPdf, SOFFICE } from '../helpers/soffice.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';
import { readWorkbook, sheetNamed } from './read-workbook.js';

const run = promisify(execFile);

const inCi = process.env['CI'] === 'true';
const TZ = 'Europe/Moscow';
const DAY = 86_400_000;
/** The emulator's clock is 2026-11-01T00:00Z: its last whole Moscow day ends here. */
const TO = Date.parse('2026-11-01T00:00:00+03:00');
/** The smallest font size a printed word may have, in points. */
const MIN_POINTS = 7;
const PERIODS = ['day', 'week', 'quarter', 'empty'] as const;
type PeriodName = (typeof PERIODS)[number];

/**
 * A report's periods: its last whole day, 7 and 90 days to it, and a day long before any data. The knowledge
 * base's reports read the kb sync and kb eval runs, taken at the emulator's clock (the next Moscow day).
 */
function periodOf(report: ReportDefinition, name: PeriodName): { from: number; to: number } {
  const end = report.reads === 'kb' ? TO + DAY : TO;
  const days = { day: 1, week: 7, quarter: 90 } as const;
  if (name === 'empty') return { from: TO - 200 * DAY, to: TO - 199 * DAY };
  return { from: end - days[name] * DAY, to: end };
}

interface Printed {
  report: ReportDefinition;
  period: PeriodName;
  from: number;
  to: number;
  xlsx: string;
  html: string | undefined;
  /** The workbook printed by LibreOffice, and the HTML page printed by Chromium. */
  pdf: { xlsx: string; html: string | undefined };
  pages: { xlsx: Page[]; html: Page[] | undefined };
}

/** What kb-health and kb-eval read: a kb sync and two kb eval runs of 8 questions; the latest run's settings. */
async function recordKnowledgeBase(h: Harness, warehouse: Warehouse): Promise<string> {
  const e = h.running.emulator;
  const keys = kbKeys(e);
  const config = loadConfig({
    ...h.env,
    REPORTER_KB_BASE_URL: `${h.running.url}${keys.basePath}`,
    REPORTER_KB_KEY: keys.projectKey,
    REPORTER_KB_ADMIN_KEY: keys.adminKey,
  });
  const questions = kbQuestions(e)
    .slice(0, 8)
    .map((q) => ({
      key: q.question,
      question: q.question,
      expectedSources: [q.sourceName],
      expectedAnswerContains: [q.expectedAnswerContains],
    }));
  expect((await syncKb({ config, warehouse, log: silentLogger(), now: () => e.now() })).status).toBe(
    'success',
  );
  for (const runId of ['run-1', 'run-2']) {
    const client = createKbClient({
      config: config.kb,
      concurrency: 4,
      retries: 3,
      backoffBaseMs: 5,
      log: silentLogger(),
    });
    try {
      await runKbEval({
        client,
        useWarehouse: (fn) => fn(warehouse),
        questions,
        runId,
        kbBaseUrl: config.kb.baseUrl,
        questionSource: 'questions.csv',
        concurrency: 4,
        waitTimeSeconds: 10,
        timeoutMs: 30_000,
        log: silentLogger(),
        now: () => e.now(),
      });
    } finally {
      await client.close();
    }
  }
  const [latest] = await warehouse.query("select settings from kb_eval_runs where run_id = 'run-2'");
  return String(latest!['settings']);
}

/** Prints the HTML pages in one Chromium (a browser starts in a second or two of CPU), two tabs at a time. */
async function printPages(chromium: string, pages: readonly { html: string; pdf: string }[]): Promise<void> {
  const browser = launchChromium(chromium, ['--run-all-compositor-stages-before-draw']);
  try {
    const queue = [...pages];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift())
        await printHtml(browser, next.html, next.pdf);
    };
    await Promise.all([worker(), worker()]);
  } finally {
    await browser.close();
  }
}

const chromium = findChromium();
const skip = (!SOFFICE || !POPPLER || !chromium) && !inCi;
if (skip)
  console.warn(
    'printed-reports.test.ts skipped: it needs soffice, pdftotext and chromium (Debian packages libreoffice-calc, poppler-utils, chromium)',
  );

describe.skipIf(skip)('every report prints readable pages that say what they are', () => {
  let h: Harness;
  const printed: Printed[] = [];
  let settings = '';
  const find = (id: string, period: PeriodName) =>
    printed.find((p) => p.report.id === id && p.period === period)!;

  beforeAll(async () => {
    h = await createHarness({
      emulator: {
        sessions: 700,
        days: 21,
        messagesPerSession: 3,
        // 1 message in 40 has long texts: they wrap in their cells over several lines
        texts: { length: 0, longEvery: 40, longLength: 240 },
      },
      // the warehouse holds the last 20 days: a 90-day period starts long before its data
      env: { REPORTER_SAFETY_LAG_MINUTES: '0', REPORTER_HISTORY_DAYS: '20', REPORTER_WINDOW_HOURS: '240' },
    });
    expect((await h.sync()).status).toBe('success');
    const dir = join(h.dir, 'printed');
    const written: {
      report: ReportDefinition;
      period: PeriodName;
      from: number;
      to: number;
      files: string[];
    }[] = [];
    await h.withWarehouse(async (warehouse) => {
      settings = await recordKnowledgeBase(h, warehouse);
      // what the unhandled report and the scorecard read: the stored run of each period
      for (const name of ['day', 'week', 'quarter'] as const)
        await recordUnhandled(warehouse, periodOf(REPORTS[0]!, name), h.running.emulator.now());
      for (const report of REPORTS)
        for (const period of PERIODS) {
          const { from, to } = periodOf(report, period);
          const out = join(dir, period);
          const result = await writeReport({
            warehouse,
            report,
            from,
            to,
            tz: TZ,
            outDir: out,
            formats: report.formats ?? ['xlsx'],
          });
          written.push({ report, period, from, to, files: result.files.map((f) => f.path) });
        }
    });
    const xlsx = written.flatMap((w) => w.files.filter((f) => f.endsWith('.xlsx')));
    const pdfOf = (file: string, kind: string) =>
      join(dir, 'pdf', `${basename(file).replace(/\.(xlsx|html)$/, '')}.${kind}.pdf`);
    // soffice starts in ~5 s: one call converts them all (it names each PDF after its workbook)
    const said = await convertToPdf(xlsx, {
      outDir: join(dir, 'lo'),
      profileDir: join(h.dir, 'lo-profile'),
      timeoutMs: 600_000,
    });
    expect(said).not.toMatch(/error|repair|corrupt|could not be loaded/i);
    mkdirSync(join(dir, 'pdf'), { recursive: true });
    for (const file of xlsx)
      copyFileSync(join(dir, 'lo', basename(file).replace(/\.xlsx$/, '.pdf')), pdfOf(file, 'xlsx'));
    const html = written.flatMap((w) => w.files.filter((f) => f.endsWith('.html')));
    await printPages(
      chromium!,
      html.map((file) => ({ html: file, pdf: pdfOf(file, 'html') })),
    );
    for (const w of written) {
      const [book, page] = [
        w.files.find((f) => f.endsWith('.xlsx'))!,
        w.files.find((f) => f.endsWith('.html')),
      ];
      printed.push({
        report: w.report,
        period: w.period,
        from: w.from,
        to: w.to,
        xlsx: book,
        html: page,
        pdf: { xlsx: pdfOf(book, 'xlsx'), html: page === undefined ? undefined : pdfOf(page, 'html') },
        pages: {
          xlsx: await pdfPages(pdfOf(book, 'xlsx')),
          html: page === undefined ? undefined : await pdfPages(pdfOf(page, 'html')),
        },
      });
    }
    if (process.env['REPORTER_DOCS_PICTURE'] === '1')
      await writeDocsPicture(find('summary', 'week').pdf.xlsx);
  }, 1_200_000);
  afterAll(async () => {
    await h?.close();
  });

  it('prints every report of the registry over every period, as a workbook and (where it has one) a page', () => {
    expect(printed).toHaveLength(REPORTS.length * PERIODS.length);
    for (const p of printed) {
      expect(p.pages.xlsx.length, `${p.report.id} ${p.period}`).toBeGreaterThan(0);
      if ((p.report.formats ?? []).includes('html')) expect(p.pages.html?.length).toBeGreaterThan(0);
    }
  });

  it('every page of a workbook names its report and period, says Page N of M and when the data was last synced', async () => {
    for (const p of printed) {
      const period = describePeriod(p.from, p.to, TZ);
      const count = await pageCount(p.pdf.xlsx);
      expect(p.pages.xlsx.length).toBe(count);
      p.pages.xlsx.forEach((page, i) => {
        const text = pageText(page);
        const where = `${p.report.id} ${p.period}, page ${i + 1} of ${count}`;
        expect(text, where).toContain(p.report.title);
        expect(text, where).toContain(period);
        expect(text, where).toContain(`Page ${i + 1} of ${count}`);
        // the knowledge base's reports: `Knowledge base last synced ...`
        expect(text, where).toMatch(/[Ll]ast synced \d{4}-\d\d-\d\d \d\d:\d\d \(Europe\/Moscow\)/);
      });
    }
  });

  it('no two words are printed over each other on any page, workbook or HTML page', () => {
    const found: string[] = [];
    for (const p of printed)
      for (const [kind, pages] of Object.entries(p.pages))
        (pages ?? []).forEach((page, i) => {
          for (const [a, b] of overlappingWords(page.words))
            found.push(`${p.report.id} ${p.period} ${kind} page ${i + 1}: "${a.text}" over "${b.text}"`);
        });
    expect(found).toEqual([]);
  });

  it('no word on any page is printed under 7 pt', () => {
    // a word's box is its font's ascent to descent: measured on text of a known size (LibreOffice: the 11 pt
    // header of the Summary sheet, printed at 100 %; Chromium: the 16 pt title)
    const summary = find('summary', 'week');
    const kpiPage = summary.pages.xlsx.find((page) => pageText(page).startsWith('Summary Summary'))!;
    const [header, title] = [kpiPage.words[0]!, summary.pages.html![0]!.words[0]!];
    const perPoint = { xlsx: (header.yMax - header.yMin) / 11, html: (title.yMax - title.yMin) / 16 };
    for (const ratio of Object.values(perPoint)) {
      expect(ratio).toBeGreaterThan(1.1);
      expect(ratio).toBeLessThan(1.4);
    }
    const small: string[] = [];
    for (const p of printed)
      for (const kind of ['xlsx', 'html'] as const)
        (p.pages[kind] ?? []).forEach((page, i) => {
          for (const w of page.words)
            if ((w.yMax - w.yMin) / perPoint[kind] + 0.05 < MIN_POINTS)
              small.push(`${p.report.id} ${p.period} ${kind} page ${i + 1}: "${w.text}"`);
        });
    expect(small).toEqual([]);
  });

  it('a note is one whole sentence on one page: the empty period names the command to run, in local dates', async () => {
    for (const p of printed.filter((x) => x.period === 'empty')) {
      const { sheets } = await readWorkbook(p.xlsx);
      const notes = sheets.map((s) => String(s.rows[0]?.[0] ?? ''));
      for (const note of notes) {
        expect(note, p.report.id).toMatch(/^No data for 2026-04-15 \(Europe\/Moscow\)/);
        if (p.report.reads !== 'kb')
          expect(note).toContain('--from 2026-04-15 --to 2026-04-16 --tz Europe/Moscow');
      }
      // each sheet's note whole on its page: as many pages say it whole as there are sheets
      const whole = p.pages.xlsx.filter((page) => squeeze(pageText(page)).includes(squeeze(notes[0]!)));
      expect(whole.length, p.report.id).toBe(sheets.length);
      expect(p.pages.xlsx.length, `${p.report.id}: a page per sheet`).toBe(sheets.length);
      if (p.pages.html) expect(squeeze(p.pages.html.map(pageText).join(' '))).toContain(squeeze(notes[0]!));
    }
  });

  it('a change or a trend only where the previous period is synced: 90 days (0 % synced before) say n/a', () => {
    const signed = /^[+-]\d/;
    for (const kind of ['xlsx', 'html'] as const) {
      const quarter = find('summary', 'quarter').pages[kind]![0]!;
      expect(pageText(quarter)).toContain('n/a: the previous period is 0 % covered, data from 2026-10-12');
      expect(
        quarter.words.filter((w) => signed.test(w.text)).map((w) => w.text),
        kind,
      ).toEqual([]);
      // the week before a week is synced: its changes are there, signed
      const week = find('summary', 'week').pages[kind]![0]!;
      expect(week.words.filter((w) => signed.test(w.text)).length, kind).toBeGreaterThanOrEqual(6);
      const unhandled = find('unhandled', 'quarter').pages[kind]!;
      expect(unhandled.flatMap((page) => page.words).filter((w) => signed.test(w.text))).toEqual([]);
      expect(unhandled.map(pageText).join(' ')).toContain('trend n/a: the previous period is 0 % covered');
    }
    // a week cut by the warehouse's first day is labelled by its dates and the days it holds
    const weeks = find('summary', 'quarter').pages.xlsx.map(pageText).join(' ');
    expect(weeks).toMatch(/2026-10-12 – 2026-10-18 \(\d of 7 days\)/);
    expect(weeks).not.toMatch(/\d{4}-W\d\d/);
  });

  it('sessions of one day print 25 rows a page or more (a page across holds the same rows)', () => {
    const p = find('sessions', 'day');
    const rowsOf = (page: Page) =>
      page.words.filter(
        (w, i) => w.text === '2026-10-31' && /^\d\d:\d\d:\d\d$/.test(page.words[i + 1]?.text ?? ''),
      ).length;
    const counts = p.pages.xlsx.map(rowsOf);
    const total = h.truth(p.from, p.to).sessions;
    expect(total).toBeGreaterThanOrEqual(30);
    // every page holds 25 rows or more, but the last pages down (one per page across), which hold the rest
    const last = counts[counts.length - 1]!;
    expect(Math.max(...counts), counts.join(', ')).toBeGreaterThanOrEqual(25);
    for (const c of counts) expect(c >= 25 || c === last, counts.join(', ')).toBe(true);
    expect(counts.filter((c) => c < 25).length, counts.join(', ')).toBeLessThan(counts.length);
  });

  it('a small table prints on one page: every sheet of at most 20 rows, in every report and period', async () => {
    // known: unhandled's Clusters over 90 days (13 clusters, their labels, channels and three examples wrapped
    // in columns narrowed to fit the page's width at 70 %) is taller than a page: 2 pages down, rows whole
    const known = ['unhandled quarter Clusters: 2 pages'];
    const split: string[] = [];
    for (const p of printed.filter((x) => x.period !== 'empty')) {
      const period = describePeriod(p.from, p.to, TZ);
      const { sheets } = await readWorkbook(p.xlsx);
      for (const sheet of sheets.filter((s) => s.name !== 'Charts' && s.allRows.length <= 20)) {
        // a page's heading: the report (left), the sheet (centre), the period (right)
        const pages = p.pages.xlsx.filter(
          (page) => heading(page) === `${p.report.title} ${sheet.name} ${period}`,
        );
        if (pages.length !== 1) split.push(`${p.report.id} ${p.period} ${sheet.name}: ${pages.length} pages`);
      }
    }
    expect(split).toEqual(known);
  });

  it('messages print no nearly blank page: beside the repeated time, every page holds a word a row at least', () => {
    for (const period of ['day', 'week'] as const) {
      const p = find('messages', period);
      p.pages.xlsx.forEach((page, i) => {
        const body = page.words.filter((w) => w.yMin > 60 && w.yMax < page.height - 40);
        const times = body.filter((w) => /^\d\d:\d\d:\d\d$/.test(w.text));
        const firstColumnEnd = Math.max(...times.map((w) => w.xMax));
        const beside = body.filter((w) => w.xMin > firstColumnEnd + 2);
        // a page of the sparse columns alone (comments, exceptions) held a word every twenty rows
        expect(beside.length, `${period} page ${i + 1}: ${times.length} rows`).toBeGreaterThanOrEqual(
          times.length,
        );
      });
    }
  });

  it("the summary's page 1 is its scorecard: six figures beside the previous period's, the chart, the top topics", async () => {
    for (const period of ['day', 'week', 'quarter'] as const) {
      const p = find('summary', period);
      for (const kind of ['xlsx', 'html'] as const) {
        const text = pageText(p.pages[kind]![0]!);
        for (const words of [
          'Scorecard',
          'Sessions',
          'Clients',
          'Messages',
          'Unrecognised share',
          'Transfer share',
          'Delivery share',
          'Previous period',
          'Change',
          'Top 5 unhandled topics',
        ])
          expect(text, `${period} ${kind}`).toContain(words);
      }
      expect(await imagesOnPage(p.pdf.xlsx, 1)).toBe(1);
      expect(pageText(p.pages.html![0]!)).toMatch(/Sessions per (hour|day|week)/);
    }
    // the figures are the emulator's: this week's and the previous week's sessions, clients and messages
    const week = find('summary', 'week');
    const before = previousPeriod(week.from, week.to, TZ);
    const [now, then] = [h.truth(week.from, week.to), h.truth(before.from, before.to)];
    const scorecard = sheetNamed((await readWorkbook(week.xlsx)).sheets, 'Scorecard');
    const row = (name: string) => scorecard.allRows.find((r) => r[0] === name) ?? [];
    expect(scorecard.header[0]).toMatch(/^This period 2026-10-25 – 2026-10-31/);
    expect(row('Sessions').slice(1, 3)).toEqual([now.sessions, then.sessions]);
    expect(row('Clients').slice(1, 3)).toEqual([now.uniqueClients, then.uniqueClients]);
    expect(row('Messages').slice(1, 3)).toEqual([now.messages, then.messages]);
    expect(row('Sessions')[3]).toBeCloseTo(now.sessions / then.sessions - 1, 10);
  });

  it("kb-eval's Settings print whole: wrapped in their cell, not cut at its edge", () => {
    // longer than any column of an in-memory sheet gets: without the wrap it would run out of its cell
    expect(settings.length).toBeGreaterThan(MAX_CONTENT_WIDTH);
    const pages = find('kb-eval', 'day').pages.xlsx;
    const joined = pages.map((page) => page.words.map((w) => w.text).join('')).join('');
    expect(joined).toContain(settings.replace(/\s/g, ''));
  });
});

/** A page's heading, left to right: the words above its body (the top margin is 54 pt). */
function heading(page: Page): string {
  const top = page.words.filter((w) => w.yMax < 50).sort((a, b) => a.xMin - b.xMin);
  return top.map((w) => w.text).join(' ');
}

/** Text without spaces: a sentence wrapped over lines reads the same. */
function squeeze(text: string): string {
  return text.replace(/\s+/g, '');
}

/** Page 1 of the 7-day summary as docs/reports.md shows it (a small PNG). */
async function writeDocsPicture(pdf: string): Promise<void> {
  const target = join(import.meta.dirname, '../../docs/images/summary-scorecard');
  mkdirSync(join(target, '..'), { recursive: true });
  await run('pdftoppm', ['-png', '-r', '72', '-f', '1', '-l', '1', '-singlefile', pdf, target]);
  expect(statSync(`${target}.png`).size).toBeLessThan(300_000);
}
