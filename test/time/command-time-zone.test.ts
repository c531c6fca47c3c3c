// One rule for local times: --tz, else REPORTER_TZ, else UTC, in every command that reads or shows them.
// stats and report (in-process), sync --from/--to (the real CLI: the sessions synced are the emulator's of
// the Moscow day), platform-report's period, runs' table times; and each command's --help says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReport } from '../../src/cli/commands/report.js';
import { runStats } from '../../src/cli/commands/stats.js';
import { main } from '../../src/cli/main.js';
import { silentLogger } from '../../src/log.js';
import { formatTable } from '../../src/manage/format-table.js';
import { resolveReportPeriod } from '../../src/platform-reports/resolve-report-period.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, createSyncedHarness, type Harness } from '../helpers/sync-harness.js';

const MOSCOW_DAY = {
  from: Date.parse('2026-10-30T00:00:00+03:00'),
  to: Date.parse('2026-10-31T00:00:00+03:00'),
};

let h: Harness;
beforeAll(async () => {
  h = await createSyncedHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

function capture() {
  const out: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: () => {}, isTty: false }, text: () => out.join('\n') };
}

describe('--tz defaults to REPORTER_TZ', () => {
  it('stats: periods and a local --from/--to in REPORTER_TZ; --tz still wins', async () => {
    const moscow = capture();
    const env = { ...h.env, REPORTER_TZ: 'Europe/Moscow' };
    const deps = { env, now: () => h.running.emulator.now(), log: silentLogger() };
    expect(await runStats(['--from', '2026-10-30', '--to', '2026-10-31', '--json'], moscow.io, deps)).toBe(0);
    const r = JSON.parse(moscow.text());
    expect(r.timeZone).toBe('Europe/Moscow');
    expect(Date.parse(r.window.from)).toBe(MOSCOW_DAY.from);
    expect(r.totals.sessions).toBe(h.truth(MOSCOW_DAY.from, MOSCOW_DAY.to).sessions);
    const text = capture();
    await runStats(['--from', '2026-10-30', '--to', '2026-10-31'], text.io, deps);
    expect(text.text()).toContain('periods by day in Europe/Moscow');
    const utc = capture();
    await runStats(['--from', '2026-10-30', '--to', '2026-10-31', '--tz', 'UTC', '--json'], utc.io, deps);
    expect(Date.parse(JSON.parse(utc.text()).window.from)).toBe(Date.parse('2026-10-30T00:00:00Z'));
  });

  it('report: the period is read in REPORTER_TZ', async () => {
    const c = capture();
    const env = { ...h.env, REPORTER_TZ: 'Europe/Moscow' };
    const deps = { env, now: () => h.running.emulator.now(), log: silentLogger() };
    const args = ['sessions', '--from', '2026-10-30T00:00', '--to', '2026-10-30T12:00', '--json'];
    expect(await runReport(args, c.io, deps)).toBe(0);
    const moscow = h.truth(Date.parse('2026-10-30T00:00:00+03:00'), Date.parse('2026-10-30T12:00:00+03:00'));
    const utc = h.truth(Date.parse('2026-10-30T00:00:00Z'), Date.parse('2026-10-30T12:00:00Z'));
    expect(moscow.sessions).not.toBe(utc.sessions); // the check below tells the zones apart
    const result = JSON.parse(c.text());
    expect(result.sheets[0].rows).toBe(moscow.sessions);
    expect(result.path).toContain('sessions_20261030T0000_20261030T1200.xlsx');
  });

  it('sync --from/--to: a local date is read in REPORTER_TZ', async () => {
    const s = await createHarness({ emulator: { sessions: 300 }, env: { REPORTER_TZ: 'Europe/Moscow' } });
    try {
      const r = await runCli(['sync', '--from', '2026-10-30', '--to', '2026-10-31', '--json'], s.env);
      // the emulator's clock stands at its data's end, this machine's later: the sync says so once (docs/sync.md,
      // the platform's clock); nothing else is said
      const said = r.stderr
        .split('\n')
        .filter((line) => line !== '' && !line.includes("ahead of the platform's"));
      expect(said).toEqual([]);
      expect(r.code).toBe(0);
      const synced = await s.withWarehouse(async (w) =>
        Number((await w.query('SELECT count(*) AS n FROM sessions'))[0]!['n']),
      );
      expect(synced).toBe(s.truth(MOSCOW_DAY.from, MOSCOW_DAY.to).sessions);
      expect(JSON.parse(r.stdout).runs[0].from).toBe(new Date(MOSCOW_DAY.from).toISOString());
    } finally {
      await s.close();
    }
  }, 60_000);

  it('platform-report: --date and the default yesterday are local days in the zone', () => {
    const now = Date.parse('2026-11-20T22:30:00Z'); // 2026-11-21 01:30 in Moscow
    expect(resolveReportPeriod({ date: '2026-10-30' }, now, 'Europe/Moscow')).toEqual(MOSCOW_DAY);
    expect(resolveReportPeriod({}, now, 'Europe/Moscow')).toEqual({
      from: Date.parse('2026-11-20T00:00:00+03:00'),
      to: Date.parse('2026-11-21T00:00:00+03:00'),
    });
    expect(resolveReportPeriod({ from: '2026-10-30T09:00' }, now, 'Europe/Moscow').from).toBe(
      Date.parse('2026-10-30T09:00:00+03:00'),
    );
  });

  it('runs: table times in the zone with its offset (UTC with Z)', () => {
    const t = Date.parse('2026-11-20T09:00:00.250Z');
    const table = (timeZone?: string) =>
      formatTable([{ at: t }], { times: ['at'], ...(timeZone ? { timeZone } : {}) })[1]!.trim();
    expect(table()).toBe('2026-11-20T09:00:00Z');
    expect(table('Europe/Moscow')).toBe('2026-11-20T12:00:00+03:00');
    expect(table('America/St_Johns')).toBe('2026-11-20T05:30:00-03:30');
  });

  it('every command that reads or shows local times says so in --help', async () => {
    for (const command of ['stats', 'report', 'sync', 'platform-report', 'runs']) {
      const out: string[] = [];
      await main([command, '--help'], { out: (l) => out.push(l), err: () => {}, isTty: false });
      expect(out.join('\n'), command).toMatch(
        /--tz ZONE\s+IANA time zone[\s\S]*\(default REPORTER_TZ, else UTC\)/,
      );
    }
  });
});
