// The sync command as a user runs it: a real child process, configuration from the environment,
// --json output, exit codes, and configuration errors that name the setting.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const cli = runCli;
/**
 * Two-day windows: a sync's CPU grows with its windows (12-hour ones: 8 for the 4 days), hardly with its
 * sessions.
 */
const WHOLE_DAYS = { REPORTER_WINDOW_HOURS: '48' };

describe('reporter-etl sync', () => {
  it('syncs and prints a JSON summary; durations in seconds are normalised to ms', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { durationUnit: 's', sessions: 400 },
      env: { REPORTER_DURATION_UNIT: 's' },
    });
    const syncStarted = h.running.emulator.now();
    const r = await cli(['sync', '--json'], h.env);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout).runs[0];
    expect(summary).toMatchObject({ project: 'shop-bot', status: 'success', mode: 'incremental' });
    expect(summary.sessions).toBeGreaterThan(0);
    const p = h.running.emulator.project('shop-bot');
    const all = await h.withWarehouse((w) =>
      w.query('select session_id, duration_ms from sessions where question_count > 1 order by session_id'),
    );
    const lastMessageAt = (i: number) => p.skeleton.messageTime(i, p.skeleton.msgCount.get(i) - 1);
    // sessions whose every message was sent before the sync began: a session still going then is synced
    // with the duration so far, as the platform reports it
    const rows = all
      .filter((row) => lastMessageAt(p.sessionIndex(row['session_id'] as string)!) < syncStarted)
      .slice(0, 20);
    expect(rows).toHaveLength(20);
    for (const row of rows) {
      const i = p.sessionIndex(row['session_id'] as string)!;
      const exact = lastMessageAt(i) - p.skeleton.start.get(i);
      // the server sent whole seconds: within half a second of the truth, stored in ms
      expect(Math.abs((row['duration_ms'] as number) - exact)).toBeLessThanOrEqual(500);
    }
  });

  it('records each run; `runs` shows the history', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 100 }, env: WHOLE_DAYS });
    const first = JSON.parse((await cli(['sync', '--json'], h.env)).stdout).runs[0];
    const second = JSON.parse((await cli(['sync', '--json'], h.env)).stdout).runs[0];
    expect(first.sessions).toBeGreaterThan(0);
    const r = await cli(['runs', '--json', '--job', 'sync'], h.env);
    expect(r.code, r.stderr).toBe(0);
    const runs = JSON.parse(r.stdout).runs;
    expect(runs.map((x: any) => x.runId)).toEqual([second.runId, first.runId]);
    expect(runs[1]).toMatchObject({
      status: 'success',
      sessions: first.sessions,
      messages: first.messages,
      requests: first.requests,
    });
    const table = await cli(['runs', '--limit', '1', '--wide'], h.env);
    expect(table.stdout).toContain(second.runId);
    expect(table.stdout).not.toContain(first.runId);
  }, 240_000);

  it('exits 2 naming the setting when the configuration is wrong', async () => {
    const r = await cli(['sync'], { REPORTER_TOKEN: '', REPORTER_CONFIG: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/REPORTER_TOKEN/);
    const bad = await cli(['sync'], { REPORTER_TOKEN: 'test-token-x', REPORTER_API: 'v3' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/REPORTER_API/);
  });

  it('exits 1 on a refused token without printing it', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 100 } });
    const r = await cli(['sync'], { ...h.env, REPORTER_TOKEN: 'secret-wrong-token-42' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/REPORTER_TOKEN/);
    expect(r.stdout + r.stderr).not.toContain('secret-wrong-token-42');
    // the summary names the configured API's host, not '(unknown)'
    const host = new URL(h.env['REPORTER_BASE_URL']!).host;
    expect(r.stdout).toContain(`project not resolved (${host}): failed`);
    // nothing was read: no mode is named (a first run said "failed (incremental)")
    expect(r.stdout).toContain(`project not resolved (${host}): failed · 0 windows · `);
    // the run failed before the project was resolved: its row is there all the same
    const runs = await cli(['runs', '--json'], h.env);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).not.toContain('secret-wrong-token-42');
    const rows = JSON.parse(runs.stdout).runs;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ job: 'sync', status: 'failed', project: null });
    expect(rows[0].error).toMatch(/REPORTER_TOKEN/);
  });

  it('refuses an impossible date (exit 2, naming the option) before any request', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 100 } });
    h.running.emulator.requestLog = [];
    for (const [option, value] of [
      ['--from', '2026-11-31'],
      ['--from', '2026-02-29T00:00:00Z'],
      ['--to', '2026-11-20T25:00'],
    ] as const) {
      const r = await cli(['sync', option, value], h.env);
      expect(r.code, `${option} ${value}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${option} expects`);
      expect(r.stderr).toContain(value);
    }
    expect(h.running.emulator.requestLog).toEqual([]);
  });

  it('refuses --from after --to (exit 2, naming both) before any request', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 100 } });
    h.running.emulator.requestLog = [];
    const r = await cli(['sync', '--from', '2026-11-21', '--to', '2026-11-20'], h.env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--from .*--to/);
    expect(h.running.emulator.requestLog).toEqual([]);
    expect(h.running.emulator.requestCount).toBe(0);
  });

  it('teaches with --help', async () => {
    const r = await cli(['sync', '--help'], {});
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/REPORTER_LOOKBACK_HOURS/);
    expect(r.stdout).toMatch(/--full/);
  });
});
