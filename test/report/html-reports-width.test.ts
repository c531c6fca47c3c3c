// Every HTML report of the registry (a report added there is checked with no edit here), written by the
// compiled CLI from synced data and opened in headless Chromium at 1280 px and at a phone's 390 px (tables as
// cards): no sideways scrolling, no cell's text past its cell, long text at a readable width. The knowledge
// base reports read two kb syncs (with a change) and four kb evals (Runs laid out as columns); unhandled the
// `unhandled` run of its period.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findReport, REPORTS } from '../../reports/index.js';
import { main } from '../../src/cli/main.js';
import { DEFAULT_KB_ADMIN_KEY, DEFAULT_KB_PROJECT_KEY } from '../../src/emulator/kb/kb-options.js';
import { kbQuestions } from '../../src/emulator/kb/kb-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { TURNED_TABLE_ROWS } from '../../src/report/html-table.js';
import type { ReportDefinition } from '../../src/report/report-definition.js';
import { CHROMIUM_MISSING, type ChromiumBrowser, findChromium, launchChromium } from '../helpers/chromium.js';
import { runCli } from '../helpers/run-cli.js';
import { createSyncedHarness, type Harness } from '../helpers/sync-harness.js';

/** A desktop window and a phone's (an iPhone's 390 px): the page reads at both. */
const WIDTHS = [1280, 390] as const;
/** A cell holding at least this many characters of text must be at least MIN_LONG_CELL px wide. */
const LONG_TEXT = 40;
const MIN_LONG_CELL = 160;
/** On a phone: a third of its width (15 characters a line or more). */
const MIN_LONG_CELL_NARROW = 120;
const HTML_REPORTS = REPORTS.filter((r) => (r.formats ?? ['xlsx']).includes('html'));

/** What the page reports of itself once laid out (a script appended to a copy of the page measures it). */
interface Measured {
  viewport: number;
  scrollWidth: number;
  /** Cells whose content is wider than the cell (cut or spilling over). */
  overflowing: string[];
  /** Cells of long text, with their width in px. */
  longCells: { text: string; width: number }[];
  /** Sections whose table scrolls sideways inside them (cut on the screen and on paper). */
  scrollingSections: string[];
  /** Data rows (the "no data" notes left out). */
  dataRows: number;
}

const MEASURE = `<script>
(() => {
  const cells = [...document.querySelectorAll('th, td')];
  const measured = {
    viewport: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    overflowing: cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent.slice(0, 60)),
    longCells: cells
      .filter((c) => c.textContent.trim().length >= ${LONG_TEXT})
      .map((c) => ({ text: c.textContent.slice(0, 60), width: Math.round(c.getBoundingClientRect().width) })),
    scrollingSections: [...document.querySelectorAll('section')]
      .filter((s) => s.scrollWidth > s.clientWidth + 1)
      .map((s) => s.querySelector('h2')?.textContent ?? s.getAttribute('aria-label')),
    dataRows: document.querySelectorAll('tbody tr:not(:has(td.note))').length,
  };
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify(measured);
  document.body.append(out);
})();
</script>`;

let h: Harness;
let kb: RunningEmulator;
let env: Record<string, string>;
let work: string;
/** One browser for every page of the file, started by the first test that opens one. */
let browser: ChromiumBrowser | undefined;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'reporter-etl-html-width-'));
  h = await createSyncedHarness();
  // the knowledge base on the real clock (the CLI's), its tables in the same warehouse
  kb = await startEmulator({ sessions: 10, days: 1, now: Date.now(), kb: { queryProcessingMs: 0 } });
  env = {
    ...h.env,
    REPORTER_KB_BASE_URL: kb.kbUrl,
    REPORTER_KB_KEY: DEFAULT_KB_PROJECT_KEY,
    REPORTER_KB_ADMIN_KEY: DEFAULT_KB_ADMIN_KEY,
  };
  const questions = kbQuestions(kb.emulator).slice(0, 12);
  writeFileSync(
    join(work, 'questions.csv'),
    [
      'question,expected_sources,expected_answer_contains',
      ...questions.map((q) => `"${q.question}",${q.sourceName},${q.expectedAnswerContains}`),
    ].join('\n'),
  );
  // what the reports read, stored by the commands run in this process (a child each cost more CPU to start
  // than the command's work); the reports themselves are written by the compiled CLI, in the tests
  // what the unhandled report reads: the stored run of its period
  await setUp(['unhandled', ...periodOf(findReport('unhandled'))]);
  await setUp(['kb', 'sync']);
  // more runs than a turned table takes: the Runs table (20 columns) must fit as columns
  for (let run = 0; run < TURNED_TABLE_ROWS; run++)
    await setUp(['kb', 'eval', '--questions', join(work, 'questions.csv')]);
  // a source replaced: the second snapshot has a change, the second run a drop
  const replaced = await fetch(`${kb.kbUrl}/api/knowledge-hub/sources/texts`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${DEFAULT_KB_PROJECT_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: questions[0]!.sourceName, text: 'Nothing to see here.' }),
  });
  expect(replaced.status).toBe(200);
  await setUp(['kb', 'sync']);
  await setUp(['kb', 'eval', '--questions', join(work, 'questions.csv')]);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
  await kb?.close();
  rmSync(work, { recursive: true, force: true });
});

/**
 * A page showing `probe` in a frame `width` px wide, the frame's measurements copied out to its own DOM:
 * headless Chromium's window is at least 500 px wide, a frame as narrow as a phone.
 */
function framed(probe: string, width: number): string {
  const page = probe.replace(/\.html$/, `-${width}.html`);
  writeFileSync(
    page,
    `<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="${pathToFileURL(probe).href}" style="width:${width}px;height:2000px;border:0"></iframe>
<script>
document.getElementById('f').addEventListener('load', () => {
  const inner = document.getElementById('f').contentDocument.getElementById('measured');
  const out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = inner ? inner.textContent : '';
  document.body.append(out);
});
</script></body></html>`,
  );
  return page;
}

/** Runs a command of the CLI in this process, with the CLI's environment (`env`), as the child would. */
async function setUp(args: string[]): Promise<void> {
  const said: string[] = [];
  for (const [name, value] of Object.entries({ LOG_LEVEL: 'warn', ...env })) vi.stubEnv(name, value);
  try {
    const code = await main(args, { out: () => {}, err: (line) => said.push(line), isTty: false });
    expect(code, `${args.join(' ')}: ${said.join('\n')}`).toBe(0);
  } finally {
    vi.unstubAllEnvs();
  }
}

async function cli(args: string[]): Promise<string> {
  const r = await runCli(args, env);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

/** The period a report is written for: the synced days, or today (UTC) for the knowledge base's. */
function periodOf(report: ReportDefinition): string[] {
  if (report.reads === 'kb') return ['--from', new Date().toISOString().slice(0, 10), '--tz', 'UTC'];
  return ['--from', '2026-10-30', '--to', '2026-11-01', '--tz', 'Europe/Moscow'];
}

describe('HTML reports at 1280 px and 390 px in headless Chromium', () => {
  it('the registry has the HTML reports this checks (summary, kb-health, kb-eval at least)', () => {
    expect(HTML_REPORTS.map((r) => r.id)).toEqual(
      expect.arrayContaining(['summary', 'kb-health', 'kb-eval']),
    );
  });

  it.for(HTML_REPORTS.map((r): [string, ReportDefinition] => [r.id, r]))(
    '%s: no sideways scrolling, no cell cut, long text readable',
    { timeout: 300_000 },
    async ([id, report], ctx) => {
      const chromium = findChromium();
      if (!chromium) return ctx.skip(CHROMIUM_MISSING);
      const out = join(work, id);
      const written = await cli([
        'report',
        id,
        ...periodOf(report),
        '--format',
        'html',
        '--out',
        out,
        '--json',
      ]);
      const page = readFileSync(JSON.parse(written).path as string, 'utf8');
      // a copy with the measuring script last in its body; the report itself has no script
      const probe = join(work, `${id}-probe.html`);
      writeFileSync(probe, page.replace('</body>', `${MEASURE}\n</body>`));
      // the frame reads the page it shows: a file may read another file
      browser ??= launchChromium(chromium, ['--allow-file-access-from-files']);
      for (const width of WIDTHS) {
        const tab = await browser.open(pathToFileURL(framed(probe, width)).href, {
          width: Math.max(width, 1280),
          height: 2000,
        });
        // the frame's load comes before its page's: the measurements are copied out by then
        const json = await tab.evaluate("document.getElementById('measured')?.textContent");
        await tab.close();
        expect(json, 'the measuring script ran').toEqual(expect.any(String));
        const m = JSON.parse(json as string) as Measured;
        const at = `${id} at ${width} px`;
        expect(m.viewport, at).toBe(width);
        expect(m.dataRows, 'a page with data (an empty one would prove nothing)').toBeGreaterThan(0);
        expect(m.scrollWidth, at).toBeLessThanOrEqual(width);
        expect(m.scrollingSections, at).toEqual([]);
        expect(m.overflowing, at).toEqual([]);
        expect(
          m.longCells.filter((c) => c.width < (width < 600 ? MIN_LONG_CELL_NARROW : MIN_LONG_CELL)),
          at,
        ).toEqual([]);
      }
    },
  );
});
