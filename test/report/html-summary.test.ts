// `reporter-etl report summary --format html` end to end through the compiled CLI: the page's KPIs equal the
// emulator's ground truth, a hostile label name is shown as text, the page asks for nothing outside itself,
// and headless Chromium opens it (a screenshot; its DOM holds the charts as <svg> and every table).
// Chromium is skipped only off CI when it is missing (.ci/run installs it). Every HTML report's width at
// 1280 px: html-reports-width.test.ts.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_MISSING, findChromium, launchChromium } from '../helpers/chromium.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

const HOSTILE = '<script>alert("x")</script> & <b>bold</b>';
/** A label with control characters: NUL, a vertical tab, DEL and a C1 control (NEL). */
const CONTROLS = 'nul\u0000vt\u000bdel\u007fnel\u0085end';
const FROM = '2026-10-30';
const TO = '2026-11-01';
const TZ = 'Europe/Moscow';
const FROM_MS = Date.parse('2026-10-30T00:00:00+03:00');
const TO_MS = Date.parse('2026-11-01T00:00:00+03:00');
/** The summary's tables and charts, as docs/reports.md describes the report. */
const TABLES = [
  'Summary',
  'By day',
  'By day × channel',
  'Channels',
  'Labels',
  'Delivery funnel',
  'Top intents',
  'Experiments',
];
const CHART_COUNT = 4;

let h: Harness;
let html: string;
let htmlPath: string;

/** The page's text with its character references decoded (what a browser shows). */
function decode(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The value cell of a KPI row (Metric | Value) of the page. */
function kpi(metric: string): string | undefined {
  const row = new RegExp(`<tr><td[^>]*>${metric}</td><td[^>]*>([^<]*)</td></tr>`).exec(html);
  return row?.[1];
}

beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 300 }, env: { REPORTER_SAFETY_LAG_MINUTES: '0' } });
  // a label named by someone who types markup: the platform sends it as is
  const labels = h.running.emulator.project('shop-bot').state.sessionLabels;
  const [id, label] = [...labels.entries()][0]!;
  labels.set(id, { ...label, name: HOSTILE });
  const [otherId, other] = [...labels.entries()][1]!;
  labels.set(otherId, { ...other, name: CONTROLS });
  expect((await h.sync()).status).toBe('success');
  const written = await runCli(
    ['report', 'summary', '--from', FROM, '--to', TO, '--tz', TZ, '--format', 'html', '--json'],
    h.env,
  );
  expect(written.code, written.stderr).toBe(0);
  htmlPath = JSON.parse(written.stdout).path;
  html = readFileSync(htmlPath, 'utf8');
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('report summary --format html', () => {
  it('writes <id>_<first day>_<last day>.html under the data directory, and no temporary file is left', () => {
    expect(htmlPath).toBe(join(h.dir, 'reports', 'summary_2026-10-30_2026-10-31.html'));
    expect(readdirSync(join(h.dir, 'reports'))).toEqual(['summary_2026-10-30_2026-10-31.html']);
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(decode(html)).toContain(`Period 2026-10-30 – 2026-10-31 (${TZ})`);
  });

  it('its KPIs are the ground truth of the period, with thousands separators', () => {
    const truth = h.truth(FROM_MS, TO_MS);
    expect(truth.sessions).toBeGreaterThan(0);
    expect(kpi('Sessions')).toBe(truth.sessions.toLocaleString('en-US'));
    expect(kpi('Messages')).toBe(truth.messages.toLocaleString('en-US'));
    expect(kpi('Unique clients')).toBe(truth.uniqueClients.toLocaleString('en-US'));
    expect(kpi('Sessions transferred to an agent')).toBe(truth.transferredSessions.toLocaleString('en-US'));
    expect(truth.messages).toBeGreaterThanOrEqual(1000); // so the separator is seen
    expect(kpi('Messages')).toMatch(/^\d{1,3}(,\d{3})+$/);
  });

  it('shows a label with control characters (NUL, DEL, C1) with each as U+FFFD, as its workbook cell does', () => {
    expect(h.truth(FROM_MS, TO_MS).sessionLabels[CONTROLS]).toBeGreaterThan(0);
    expect(html).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/);
    expect(decode(html)).toContain('>nul\uFFFDvt\uFFFDdel\uFFFDnel\uFFFDend<');
  });

  it('shows a hostile label name as text: escaped in the table and in the chart, never as markup', () => {
    const truth = h.truth(FROM_MS, TO_MS);
    expect(truth.sessionLabels[HOSTILE]).toBeGreaterThan(0);
    // raw: no markup of the name survives; decoded (what the browser shows): the name in full, as text
    expect(html).not.toMatch(/<script|<b>|<\/b>/i);
    const shown = decode(html);
    // the Labels row of a session label: kind, project, group, label, its id, sessions (the ground truth's count)
    expect(shown).toMatch(
      new RegExp(
        `<td[^>]*>${escapeRegExp(HOSTILE)}</td><td class="num"[^>]*>\\d+</td><td class="num"[^>]*>${truth.sessionLabels[HOSTILE]}</td>`,
      ),
    );
    // the Top session labels chart's category (cut to 36 characters there)
    expect(shown).toContain(`>${HOSTILE.slice(0, 35)}…</text>`);
  });

  it('asks for nothing outside the file: no URL in any src or href, no script, no stylesheet link', () => {
    const attributes = [...html.matchAll(/\b(?:src|href|xlink:href)\s*=\s*["']?([^"'\s>]*)/gi)].map(
      (m) => m[1]!,
    );
    expect(attributes.filter((a) => /http|\/\//i.test(a))).toEqual([]);
    // url(#id): a chart's reference to its own clip path, inside the page (no request)
    expect(html).not.toMatch(/<link\b|<script\b|<img\b|<iframe\b|@import|url\((?!#)/i);
  });

  it('--format html is refused for a report that has no HTML form (exit 2, naming summary)', async () => {
    const refused = await runCli(
      ['report', 'sessions', '--from', FROM, '--to', TO, '--format', 'html'],
      h.env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--format html.*sessions.*summary/);
    const unknown = await runCli(['report', 'summary', '--from', FROM, '--to', TO, '--format', 'pdf'], h.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--format');
  }, 60_000);

  it('opens in headless Chromium: a screenshot, and a DOM with the charts as <svg> and every table', async (ctx) => {
    const chromium = findChromium();
    if (!chromium) return ctx.skip(CHROMIUM_MISSING);
    const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-screenshot-'));
    const browser = launchChromium(chromium);
    try {
      const tab = await browser.open(pathToFileURL(htmlPath).href, { width: 1280, height: 2000 });
      const png = join(dir, 'summary.png');
      await tab.screenshot(png);
      expect(existsSync(png)).toBe(true);
      const image = readFileSync(png);
      expect(image.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      expect(image.readUInt32BE(16)).toBe(1280); // IHDR width
      expect(statSync(png).size).toBeGreaterThan(20_000);

      // the DOM as the browser built it from the file (what --dump-dom printed)
      const dom = String(await tab.evaluate('document.documentElement.outerHTML'));
      expect(dom.match(/<svg\b/g)).toHaveLength(CHART_COUNT);
      // the scorecard first: its figures' table (no unhandled run stored: a line says how to make one)
      expect(dom.match(/<table\b/g)).toHaveLength(TABLES.length + 1);
      expect([...dom.matchAll(/<h2>([^<]*)<\/h2>/g)].map((m) => decode(m[1]!))).toEqual([
        'Scorecard',
        ...TABLES,
      ]);
      expect(decode(dom)).toContain(
        'no unhandled run is stored for this period; run reporter-etl unhandled --from',
      );
      for (const title of ['Sessions per day', 'Channel mix', 'Delivery funnel', 'Top session labels'])
        expect(dom).toMatch(new RegExp(`<svg[^>]*aria-label="${title}`));
      // the hostile name is a text node in the browser's DOM, not an element
      expect(dom).toContain('&lt;script&gt;alert("x")&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
      expect(dom).not.toMatch(/<script\b/i);
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
