// Figures rounded in one place: JSON without binary noise (20.7, not 20.69999999999999) at full precision;
// each kind of figure shown with one number of decimals, rounded half up on its decimal value; and `stats`'
// text and the summary's HTML page print the same figure the same way (the intents' mean confidence, the
// messages per session), both equal to what the test computes from the warehouse with its own SQL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReport } from '../../reports/index.js';
import { computeStats } from '../../src/analysis/stats/compute-stats.js';
import { renderStatsText } from '../../src/analysis/stats/render-stats-text.js';
import { runStats } from '../../src/cli/commands/stats.js';
import { silentLogger } from '../../src/log.js';
import { writeReport } from '../../src/report/write-report.js';
import {
  formatDecimal,
  formatShare,
  roundHalfUp,
  toCleanJson,
  withoutNoise,
} from '../../src/text/format-figures.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

describe('rounding', () => {
  it('JSON keeps 12 significant digits: no binary noise, nothing else lost', () => {
    expect(withoutNoise(20.69999999999999)).toBe(20.7);
    expect(withoutNoise(0.1 + 0.2)).toBe(0.3);
    expect(withoutNoise(1 / 3)).toBe(0.333333333333);
    expect(withoutNoise(1_700_000_000_123)).toBe(1_700_000_000_123);
    expect(withoutNoise(Number.NaN)).toBeNaN();
    expect(toCleanJson({ p90: 20.69999999999999, n: 3, s: 'x', a: [0.1 + 0.2, null] })).toBe(
      JSON.stringify({ p90: 20.7, n: 3, s: 'x', a: [0.3, null] }, null, 2),
    );
  });

  it('display: half up on the decimal value, fixed decimals per figure', () => {
    // 0.7695 is stored as 0.76949999…: toFixed(3) said 0.769 where Excel shows 0.770
    expect((0.7695).toFixed(3)).toBe('0.769');
    expect(roundHalfUp(0.7695, 3)).toBe(0.77);
    expect(formatDecimal(0.7695, 3)).toBe('0.770');
    expect(formatDecimal(10, 2)).toBe('10.00');
    expect(formatDecimal(1234.565, 2)).toBe('1,234.57');
    expect(formatDecimal(-2.5, 0)).toBe('-3');
    expect(formatShare(0.12345)).toBe('12.3%');
    expect(formatShare(null)).toBe('-');
  });
});

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 400 }, env: { REPORTER_SAFETY_LAG_MINUTES: '0' } });
  expect((await h.sync()).status).toBe('success');
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const FROM = Date.parse('2026-10-29T00:00:00+03:00');
const TO = Date.parse('2026-10-31T00:00:00+03:00');
const TZ = 'Europe/Moscow';

/** The test's own rounding: half up on the decimal value, as Excel shows a number. */
const shown = (x: number, digits: number) =>
  (Math.round(Number((x * 10 ** digits).toPrecision(12))) / 10 ** digits).toFixed(digits);

/** The cells of the HTML row whose first cell is `first`. */
function htmlRow(page: string, first: string): string[] {
  // a first cell may carry the column's name for the narrow layout (data-label)
  const row = page
    .split('<tr>')
    .find((r) => r.startsWith('<td') && r.slice(r.indexOf('>') + 1).startsWith(`${first}</td>`));
  expect(row, first).toBeDefined();
  return [...row!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]!);
}

describe('one rounding for text, HTML and JSON', () => {
  it('stats text and the summary page print the same figures, as the warehouse says', async () => {
    const query = {
      from: FROM,
      to: TO,
      timeZone: TZ,
      period: 'day' as const,
      top: 10,
      catchAllClass: '/CatchAll',
    };
    const stats = await h.withWarehouse((w) => computeStats(w, query));
    const text = renderStatsText(stats).split('\n');
    const result = await h.withWarehouse((warehouse) =>
      writeReport({
        warehouse,
        report: findReport('summary'),
        from: FROM,
        to: TO,
        tz: TZ,
        outDir: join(h.dir, 'r'),
        formats: ['html'],
      }),
    );
    const page = readFileSync(result.path, 'utf8');
    const truth = await h.withWarehouse((w) =>
      w.query(
        `SELECT nlp_class, avg(confidence) AS c FROM messages WHERE "timestamp" >= $1 AND "timestamp" < $2
           AND nlp_class IS NOT NULL GROUP BY nlp_class`,
        [new Date(FROM), new Date(TO)],
      ),
    );
    expect(stats.intents.top.length).toBeGreaterThan(2);
    for (const intent of stats.intents.top) {
      const expected = shown(Number(truth.find((r) => r['nlp_class'] === intent.nlpClass)!['c']), 3);
      const textRow = text.find((l) => l.startsWith(`${intent.nlpClass} `))!;
      expect(textRow.trim().split(/\s+/).at(-1), intent.nlpClass).toBe(expected);
      expect(htmlRow(page, intent.nlpClass).at(-1), intent.nlpClass).toBe(expected);
    }
    // messages per session: mean and median with the same decimals, in the text and on the page alike
    const perSession = stats.totals.messagesPerSession!;
    const line = text.find((l) => l.includes('messages per session:'))!;
    expect(line).toContain(`mean ${shown(perSession.mean, 2)} · p50 ${shown(perSession.p50, 2)}`);
    expect(htmlRow(page, 'Messages per session: mean')[1]).toBe(shown(perSession.mean, 2));
    expect(htmlRow(page, 'Messages per session: median')[1]).toBe(shown(perSession.p50, 2));
  });

  it('stats --json: full precision without binary noise', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: () => {}, isTty: false };
    const args = ['--from', '2026-10-29', '--to', '2026-10-31', '--tz', TZ, '--json'];
    expect(
      await runStats(args, io, { env: h.env, now: () => h.running.emulator.now(), log: silentLogger() }),
    ).toBe(0);
    const json = out.join('\n');
    // no literal with more than 12 significant digits after the point's leading zeros
    const literals = json.match(/-?\d+\.\d+(e-?\d+)?/g) ?? [];
    expect(literals.length).toBeGreaterThan(10);
    for (const literal of literals)
      expect(literal.replace(/^-?0\.0*|[.-]|e.*$/g, '').length, literal).toBeLessThanOrEqual(12);
    const exact = await h.withWarehouse((w) =>
      computeStats(w, {
        from: FROM,
        to: TO,
        timeZone: TZ,
        period: 'day',
        top: 10,
        catchAllClass: '/CatchAll',
      }),
    );
    const parsed = JSON.parse(json);
    expect(parsed.totals.messagesPerSession.p90).toBeCloseTo(exact.totals.messagesPerSession!.p90, 9);
    expect(parsed.totals.sessions).toBe(h.truth(FROM, TO).sessions);
  });
});
