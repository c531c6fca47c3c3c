// The CLI's human output in one style: counts with their noun in the right form (1 window, 2 windows), sizes
// in KB/MB, the first sync into an empty warehouse called so, and the `runs` table with headers in words and
// durations in seconds (its --json unchanged).
import { afterEach, describe, expect, it } from 'vitest';
import { formatSize, plural } from '../../src/text/plural.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('human output', () => {
  it('plural and formatSize', () => {
    expect(plural(1, 'task')).toBe('1 task');
    expect(plural(0, 'task')).toBe('0 tasks');
    expect(plural(1234, 'request')).toBe('1,234 requests');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
    expect(formatSize(512)).toBe('512 bytes');
    expect(formatSize(96_499)).toBe('94 KB');
    expect(formatSize(2.5 * 1024 * 1024)).toBe('2.5 MB');
  });

  it('sync says its counts in words; runs shows headers in words and durations in seconds', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 200 } });
    const sync = await runCli(['sync'], h.env);
    expect(sync.code, sync.stderr).toBe(0);
    const runs = JSON.parse((await runCli(['runs', '--json'], h.env)).stdout).runs;
    expect(runs).toHaveLength(1);
    const run = runs[0];
    // --json keeps its fields (scripts read them)
    expect(Object.keys(run)).toEqual(expect.arrayContaining(['runId', 'startedAt', 'durationMs']));
    const w = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
    // the first run into an empty warehouse is called what it is, with the history it read
    const days = h.config.historyMs / 86_400_000;
    expect(sync.stdout).toContain(
      `: success (first sync of an empty warehouse: the last ${w(days, 'day')}) · `,
    );
    expect(sync.stdout).toContain(
      `${w(run.windows, 'window')} · ${w(run.sessions, 'session')} · ${w(run.messages, 'message')} · ${w(run.requests, 'request')} (up to ${run.concurrencyReached} in flight) ·`,
    );
    // --json times are ISO 8601 UTC, as in every JSON output
    expect(run.startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(run.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const table = await runCli(['runs'], h.env);
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    const [header, row] = lines;
    // the table fits 100 columns; counts have thousands separators
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(header!.split(/\s{2,}/)).toEqual([
      'Started',
      'Job',
      'Project',
      'Status',
      'Time (s)',
      'Messages',
      'Rejected',
      'Outcome',
    ]);
    expect(run.messages).toBeGreaterThanOrEqual(1000);
    expect(row).toContain(` ${run.messages.toLocaleString('en-US')} `);
    expect(row).toContain(` ${(run.durationMs / 1000).toFixed(1)} `);
    const wide = await runCli(['runs', '--wide'], h.env);
    const [wideHeader, wideRow] = wide.stdout.split('\n');
    expect(wideHeader!.split(/\s{2,}/)).toEqual([
      'Run',
      'Started',
      'Job',
      'Project',
      'Trigger',
      'Status',
      'Time (s)',
      'Windows',
      'Sessions',
      'Messages',
      'Requests',
      'Rejected',
      'Notification',
      'Error',
    ]);
    expect(wideRow).toContain(run.runId);
    expect(wideRow).toContain(` ${run.requests.toLocaleString('en-US')} `);
    // a later run is an incremental one
    const again = await runCli(['sync'], h.env);
    expect(again.stdout).toContain(': success (incremental) · ');
  }, 240_000);

  it('a run after a failed first sync is still a first sync (it reads the history), not "incremental"', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 50 } });
    const refused = await runCli(['sync'], { ...h.env, REPORTER_TOKEN: 'not-the-emulator-token' });
    expect(refused.code, refused.stderr).not.toBe(0);
    const sync = await runCli(['sync'], h.env);
    expect(sync.code, sync.stderr).toBe(0);
    const days = h.config.historyMs / 86_400_000;
    expect(sync.stdout).toContain(`: success (first sync of the project: the last ${days} days) · `);
  }, 120_000);
});
