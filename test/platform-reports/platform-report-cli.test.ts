// `reporter-etl platform-report` as a user runs it, in a child process: a restart while waiting (the child
// is killed; --resume leaves the task while its lease is fresh, exit 75, and finishes it once stale: exactly
// one task on the platform and one file), create, list and
// delete on legacy with the token never printed, logged nor stored, a usage error (exit 2) and --help.
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { LEASE } from '../../src/warehouse/lease.js';
import {
  cli,
  createReportHarness,
  DAY,
  fileRows,
  type ReportHarness,
  sorted,
  spawnCli,
  waitFor,
} from './report-harness.js';

/** Runs a test with its own emulator and warehouse (tests of this file run concurrently). */
async function using(
  options: Parameters<typeof createReportHarness>[0],
  test: (r: ReportHarness) => Promise<unknown>,
) {
  const r = await createReportHarness(options);
  try {
    await test(r);
  } finally {
    await r.close();
  }
}

const HOUR = 3_600_000;
const iso = (t: number) => new Date(t).toISOString();

describe.concurrent('reporter-etl platform-report (child process)', () => {
  it(
    'a restart while waiting: killed, then --resume finishes it: one task on the platform, one file',
    () =>
      using({ realClock: true, emulator: { reportRowsPerSecond: 200 } }, async (r) => {
        const now = r.h.running.emulator.now();
        const from = Math.floor((now - DAY) / HOUR) * HOUR;
        const to = from + 18 * HOUR;
        const args = ['messages', '--from', iso(from), '--to', iso(to), '--format', 'csv', '--out', r.outDir];
        const child = spawnCli(args, r.h.env);
        const exited = once(child, 'exit');
        // the child long-polls only after recording the request
        await waitFor(() => r!.h.running.emulator.reports.pendingPolls > 0, 45_000, 'the child to long-poll');
        child.kill('SIGKILL');
        await exited;
        expect(r.platformTasks()).toHaveLength(1);
        expect(['CREATED', 'STARTED']).toContain(r.platformTasks()[0]!.status);
        const [pending] = await r.records();
        expect(pending).toMatchObject({ status: 'pending', owner_pid: child.pid });
        expect(pending!['request_id']).toEqual(expect.any(String));
        const beatAt = (sql: string) =>
          r.withWarehouse((w) => w.query(`UPDATE platform_report_tasks SET heartbeat_at = ${sql}`));

        // right after the kill its lease still looks held (its heartbeat is fresh): left to it, exit 75
        await beatAt('now()');
        const early = await cli(['--resume'], r.h.env);
        expect(early.code, early.stderr).toBe(75);
        expect(early.stderr).toContain(`task ${pending!['id']} left to process ${child.pid}`);
        expect(r.platformTasks()).toHaveLength(1);
        // 3 missed beats later (30 s) the lease is stale: the next --resume takes the task over
        await beatAt(`now() - INTERVAL ${Math.ceil(LEASE.staleMs / 1000) + 1} SECOND`);
        const resumed = await cli(['--resume', '--json'], r.h.env);
        expect(resumed.code, resumed.stderr).toBe(0);
        const result = JSON.parse(resumed.stdout);
        expect(result.outcomes).toHaveLength(1);
        expect(result.outcomes[0]).toMatchObject({ id: pending!['id'], status: 'completed' });
        expect(r.platformTasks()).toHaveLength(1);
        expect(r.files()).toHaveLength(1);
        expect(r.files()[0]).toMatch(/^messages_\d{8}T\d{4}Z_\d{8}T\d{4}Z\.csv$/);
        const rows = await fileRows(`${r.outDir}/${r.files()[0]}`);
        expect(sorted(rows.slice(1).map((row) => row[0]))).toEqual(r.h.truth(from, to).messageIds);
        const records = await r.records();
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({
          status: 'completed',
          owner_pid: null,
          file_rows: rows.length - 1,
        });
      }),
    90_000,
  );

  it('legacy: create, list and delete; the token is never printed, logged or stored', () =>
    using({ realClock: true, api: 'legacy' }, async (r) => {
      const token = r.h.env['REPORTER_TOKEN']!;
      const date = iso(r.h.running.emulator.now() - DAY).slice(0, 10);
      r.h.running.emulator.faults.script({ type: 'status503', path: 'reports/tasks', times: 1 });
      const made = await cli(['sessions', '--date', date, '--format', 'csv'], {
        ...r.h.env,
        LOG_LEVEL: 'debug',
        REPORTER_RETRIES: '3',
      });
      expect(made.code, made.stderr).toBe(0);
      const line = new RegExp(`sessions ${date}: completed · task ([0-9a-f-]+) · (\\d+) rows · (.*)$`, 'm');
      const [, taskId, rows, path] = line.exec(made.stdout) ?? [];
      expect(path).toBe(`${r.h.dir}/platform-reports/sessions_${date}.csv`);
      expect(Number(rows)).toBe(r.h.truth(Date.parse(date), Date.parse(date) + DAY).sessions);
      expect(r.h.running.emulator.faults.unfired()).toEqual([]);

      const listed = await cli(['list'], { ...r.h.env, LOG_LEVEL: 'debug' });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/shop-bot: 1 task on the platform/);
      expect(listed.stdout).toMatch(new RegExp(`${taskId}\\s+SESSIONS\\s+COMPLETED`));
      expect(listed.stdout).toMatch(/shop-bot: 1 record in platform_report_tasks/);
      const deleted = await cli(['delete', taskId!], r.h.env);
      expect(deleted.code, deleted.stderr).toBe(0);
      expect(deleted.stdout).toContain(`deleted 1 task on the platform: ${taskId}`);
      expect(r.platformTasks()).toHaveLength(0);
      const [record] = await r.records();
      expect(record).toMatchObject({ status: 'completed', platform_status: 'DELETED', task_id: taskId });

      for (const text of [
        made.stdout,
        made.stderr,
        listed.stdout,
        listed.stderr,
        deleted.stdout,
        deleted.stderr,
      ])
        expect(text).not.toContain(token);
      const dump = await r.h.withWarehouse((w) => w.query('select * from platform_report_tasks'));
      expect(JSON.stringify(dump)).not.toContain(token);
    }));

  it('a usage error exits 2 naming what to change; --help teaches', async () => {
    const bad = await cli(['messages', '--filter', 'COLOUR=red'], { REPORTER_TOKEN: 'test-token-x' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown filter key COLOUR/);
    const help = await cli(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--resume/);
    expect(help.stdout).toMatch(/platform_report_tasks/);
  });
});
