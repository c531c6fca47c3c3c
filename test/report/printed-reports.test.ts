// Every report as an analyst prints it (issue 33): each report of the registry (reports/index.ts, so a report
// added later is checked with no edit here) written for one day of a synced emulator, kb-health and kb-eval
// after a kb sync and two kb eval runs, unhandled after its day's `unhandled` run (recordUnhandled), and the
// summary of 90 days, converted to PDF by LibreOffice in one `soffice --convert-to pdf` call and read back
// with poppler (`pdfinfo`, `pdftotext -bbox`): every page names its report, its sheet's period and says "Page N of M" (M the PDF's page count); no word on any page under 7 pt;
// the summary of 90 days prints on at most 20 pages, of one day on at most 8 (54 and 14 before); kb-eval's
// Settings (a JSON text longer than its column) print whole, wrapped, not cut at the cell's left edge.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReport, REPORTS } from '../../reports/index.js';
import { runKbEval } from '../../src/analysis/kb-eval/run-kb-eval.js';
import { loadConfig } from '../../src/config.js';
import { kbKeys, kbQuestions } from '../../src/emulator/kb/kb-truth.js';
import { silentLogger } from '../../src/log.js';
import { createKbClient } from '../../src/platform/kb/kb-client.js';
import { printedPeriod } from '../../src/report/print-layout.js';
import type { ReportDefinition } from '../../src/report/report-definition.js';
import { MAX_CONTENT_WIDTH } from '../../src/report/sheet-layout.js';
import { writeReport } from '../../src/report/write-report.js';
import { syncKb } from '../../src/sources/kb/sync-kb.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { recordUnhandled } from '../helpers/record-unhandled.js';
import { convertToPdf, SOFFICE } from '../helpers/soffice.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

const run = promisify(execFile);

const POPPLER = ['/usr/bin/pdftotext', '/usr/local/bin/pdftotext'].some((p) => existsSync(p));
const inCi = process.env['CI'] === 'true';
const TZ = 'Europe/Moscow';
const DAY_MS = 86_400_000;
/** The emulator's clock is 2026-11-01T00:00Z: its last whole Moscow day, and 90 days before it. */
const TO = Date.parse('2026-11-01T00:00:00+03:00');
const DAY_FROM = TO - DAY_MS;
const QUARTER_FROM = TO - 90 * DAY_MS;
/** The knowledge base reports read the runs of kb sync and kb eval, taken at the emulator's clock. */
const KB_FROM = TO - DAY_MS;
const KB_TO = TO + DAY_MS;
/** The smallest font size a printed word may have, in points. */
const MIN_POINTS = 7;

interface Word {
  text: string;
  height: number;
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** pdftotext -bbox writes the words as XML text. */
function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => XML_ENTITIES[name]!);
}

/** The words of each page of a PDF, with their box heights (pdftotext -bbox: yMax − yMin, in points). */
async function pdfWords(pdf: string): Promise<Word[][]> {
  const { stdout } = await run('pdftotext', ['-bbox', pdf, '-'], { maxBuffer: 256 * 1024 * 1024 });
  return stdout
    .split('<page ')
    .slice(1)
    .map((page) =>
      [
        ...page.matchAll(
          /<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)<\/word>/g,
        ),
      ].map((m) => ({ text: unescapeXml(m[3]!), height: Number(m[2]) - Number(m[1]) })),
    );
}

async function pageCount(pdf: string): Promise<number> {
  const { stdout } = await run('pdfinfo', [pdf]);
  return Number(/^Pages:\s+(\d+)/m.exec(stdout)?.[1]);
}

/**
 * What kb-health and kb-eval read: a kb sync of the emulated knowledge base and two kb eval runs of 8 of its
 * questions (kb-eval compares the latest with the one before); returns the latest run's settings text.
 */
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

if ((!SOFFICE || !POPPLER) && !inCi)
  console.warn(
    'printed-reports.test.ts skipped: it needs soffice and pdftotext (Debian packages libreoffice-calc and poppler-utils)',
  );

describe.skipIf((!SOFFICE || !POPPLER) && !inCi)(
  'every report prints readable pages that say what they are',
  () => {
    let h: Harness;
    const dir = () => join(h.dir, 'printed');
    /** report id (summary-90 for the 90-day summary) → its PDF and the period its pages name */
    const printed = new Map<string, { report: ReportDefinition; pdf: string; period: string }>();
    /** The latest kb eval run's settings, as the kb-eval report's Run sheet shows them (a long JSON text). */
    let settings = '';

    beforeAll(async () => {
      h = await createHarness({
        emulator: { sessions: 1_800, days: 91 },
        env: { REPORTER_SAFETY_LAG_MINUTES: '0', REPORTER_HISTORY_DAYS: '92', REPORTER_WINDOW_HOURS: '240' },
      });
      expect((await h.sync()).status).toBe('success');
      const workbooks: string[] = [];
      await h.withWarehouse(async (warehouse) => {
        settings = await recordKnowledgeBase(h, warehouse);
        // what the unhandled report reads: the stored run of its day
        await recordUnhandled(warehouse, { from: DAY_FROM, to: TO }, h.running.emulator.now());
        const asked = [
          ...REPORTS.map((report) => ({ key: report.id, report, kb: report.reads === 'kb', from: DAY_FROM })),
          { key: 'summary-90', report: findReport('summary'), kb: false, from: QUARTER_FROM },
        ];
        for (const { key, report, kb, from } of asked) {
          const [f, t] = kb ? [KB_FROM, KB_TO] : [from, TO];
          // every file name differs (report and period): one folder for all
          const result = await writeReport({ warehouse, report, from: f, to: t, tz: TZ, outDir: dir() });
          workbooks.push(result.path);
          printed.set(key, {
            report,
            pdf: join(dir(), 'pdf', basename(result.path).replace(/\.xlsx$/, '.pdf')),
            period: printedPeriod(f, t, TZ),
          });
        }
      });
      // soffice starts in ~5 s: one call converts them all
      const said = await convertToPdf(workbooks, {
        outDir: join(dir(), 'pdf'),
        profileDir: join(h.dir, 'lo-profile'),
        timeoutMs: 240_000,
      });
      expect(said).not.toMatch(/error|repair|corrupt|could not be loaded/i);
    }, 300_000);
    afterAll(async () => {
      await h?.close();
    });

    it('every page names its report and period and says Page N of M', async () => {
      for (const [key, { report, pdf, period }] of printed) {
        const pages = await pdfWords(pdf);
        expect(pages.length, key).toBe(await pageCount(pdf));
        pages.forEach((words, i) => {
          const text = words.map((w) => w.text).join(' ');
          const where = `${key}, page ${i + 1} of ${pages.length}`;
          expect(text, where).toContain(report.title);
          expect(text, where).toContain(period);
          expect(text, where).toContain(`Page ${i + 1} of ${pages.length}`);
        });
      }
    });

    it('no word on any page is printed under 7 pt', async () => {
      // a word's box is its font's ascent to descent: 1.3 × its size (the 11 pt header of a page at 100 %)
      const [first] = await pdfWords(printed.get('summary')!.pdf);
      const title = first!.find((w) => w.text === 'Summary')!;
      const perPoint = title.height / 11;
      expect(perPoint).toBeGreaterThan(1.2);
      expect(perPoint).toBeLessThan(1.4);
      for (const [key, { pdf }] of printed) {
        const pages = await pdfWords(pdf);
        pages.forEach((words, i) => {
          const smallest = words.reduce((min, w) => (w.height < min.height ? w : min), words[0]!);
          // 0.05 pt: boxes of one size differ by less than 0.01 pt between pages and fonts' rounding
          expect(
            smallest.height / perPoint + 0.05,
            `${key} page ${i + 1}: "${smallest.text}"`,
          ).toBeGreaterThanOrEqual(MIN_POINTS);
        });
      }
    });

    it("kb-eval's Settings print whole: wrapped in their cell, not cut at its edge", async () => {
      // longer than any column of an in-memory sheet gets: without the wrap it would run out of its cell
      expect(settings.length).toBeGreaterThan(MAX_CONTENT_WIDTH);
      const pages = await pdfWords(printed.get('kb-eval')!.pdf);
      // the JSON wraps at any character: its words, joined, are the text again (spaces aside)
      const joined = pages.map((words) => words.map((w) => w.text).join('')).join('');
      expect(joined).toContain(settings.replace(/\s/g, ''));
    });

    it('the summary of 90 days prints on at most 20 pages (by week), of one day on at most 8', async () => {
      expect(await pageCount(printed.get('summary-90')!.pdf)).toBeLessThanOrEqual(20);
      expect(await pageCount(printed.get('summary')!.pdf)).toBeLessThanOrEqual(8);
      const words = (await pdfWords(printed.get('summary-90')!.pdf)).flat().map((w) => w.text);
      expect(words).toContain('Week');
    });
  },
);
