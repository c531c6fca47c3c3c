// Who may resume an open report task: an owner of this host known dead (reaped, a zombie, a reused PID) at
// once, whatever its heartbeat; otherwise the lease (owner id and heartbeat). A task whose owner's PID answers
// but whose heartbeat is stale is resumed, created once; a task with a fresh heartbeat of a live owner, or of
// another host's, is left to it and --resume exits 75 naming it; the owner's heartbeat moves while it waits.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.js';
import type { ReportSpec } from '../../src/platform-reports/build-create-request.js';
import { resumePlatformReports } from '../../src/platform-reports/resume-platform-reports.js';
import { runPlatformReport } from '../../src/platform-reports/run-platform-report.js';
import { type ProcessOwner, thisProcess } from '../../src/process/process-identity.js';
import { LEASE } from '../../src/warehouse/lease.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { liveOwner, ownerThatDied, zombieOwner } from '../helpers/owner-processes.js';
import { createReportHarness, DAY, fileRows, type ReportHarness, sorted } from './report-harness.js';

async function using(
  options: Parameters<typeof createReportHarness>[0],
  test: (r: ReportHarness) => Promise<unknown>,
) {
  const r = await createReportHarness({ shared: true, ...options });
  try {
    await test(r);
  } finally {
    await r.close();
  }
}

const period = { from: TEST_NOW - DAY, to: TEST_NOW };
const messages: ReportSpec = { kind: 'messages', period, filters: [], fileType: 'CSV' };

/** A live process unrelated to the report: its PID answers kill(pid, 0), like a PID reused after a crash. */
async function startUnrelated(): Promise<{ pid: number; child: ChildProcess }> {
  const child = spawn('sleep', ['120'], { stdio: 'ignore' });
  await once(child, 'spawn');
  return { pid: child.pid!, child };
}

/**
 * A zombie: `sleep 1` started in the background by a shell that then execs `sleep 120`, which never reaps
 * it. Its PID answers kill(pid, 0) although the process is dead.
 */
async function startZombie(): Promise<{ pid: number; child: ChildProcess }> {
  const child = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 120'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const pid = Number(line.toString().trim());
  const state = () => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '')[0];
  for (let i = 0; i < 200 && state() !== 'Z'; i++) await new Promise((done) => setTimeout(done, 25));
  expect(state()).toBe('Z');
  expect(() => process.kill(pid, 0)).not.toThrow();
  return { pid, child };
}

/** Leaves one pending task (created on the platform, nothing waiting for it) and answers its record id. */
async function leavePending(r: ReportHarness): Promise<string> {
  const first = await runPlatformReport(r.ctx(), messages, r.options({ deadlineMs: 0 }));
  expect(first.exitCode).toBe(EXIT.tryLater);
  expect(r.platformTasks()).toHaveLength(1);
  return first.outcomes[0]!.id;
}

async function setOwner(r: ReportHarness, id: string, pid: number, heartbeatAt: number): Promise<void> {
  await r.withWarehouse((w) =>
    w.query(
      'UPDATE platform_report_tasks SET owner_pid = $pid, owner_host = $host, owner_id = $owner, heartbeat_at = $beat WHERE id = $id',
      { id, pid, host: hostname(), owner: 'another-session', beat: new Date(heartbeatAt) },
    ),
  );
}

describe.concurrent('report task leases', () => {
  for (const [what, start] of [
    ['a PID reused by an unrelated live process', startUnrelated],
    ['a zombie (killed, never reaped)', startZombie],
  ] as const) {
    it(
      `an owner whose heartbeat is stale is taken over, though its PID answers: ${what}`,
      () =>
        using({}, async (r) => {
          const owner = await start();
          try {
            const id = await leavePending(r);
            // the clock of these tests is the emulator's (fixed): stale = more than staleMs before it
            await setOwner(r, id, owner.pid, r.h.running.emulator.now() - LEASE.staleMs - 1_000);
            const resumed = await resumePlatformReports(r.ctx(), r.options());
            expect(resumed.skipped).toEqual([]);
            expect(resumed.exitCode).toBe(EXIT.ok);
            expect(resumed.outcomes).toEqual([expect.objectContaining({ id, status: 'completed' })]);
            expect(r.platformTasks()).toHaveLength(1);
            const rows = await fileRows(resumed.outcomes[0]!.filePath!);
            expect(sorted(rows.slice(1).map((row) => row[0]))).toEqual(
              r.h.truth(period.from, period.to).messageIds,
            );
            const [record] = await r.records();
            expect(record).toMatchObject({ status: 'completed', owner_id: null, heartbeat_at: null });
          } finally {
            owner.child.kill('SIGKILL');
          }
        }),
      90_000,
    );
  }

  /** A reused PID: this very process's PID, recorded with another start time. */
  const reusedPid = async (): Promise<{ owner: ProcessOwner; stop(): Promise<void> }> => {
    const me = thisProcess();
    return { owner: { ...me, startTicks: (me.startTicks ?? 0) + 1 }, stop: async () => undefined };
  };
  const reaped = async () => ({ owner: await ownerThatDied(), stop: async () => undefined });
  for (const [what, start, withIdentity] of [
    ['reaped (its PID gone), recorded before boot ids were', reaped, false],
    ['a zombie, recorded before boot ids were', zombieOwner, false],
    ['a PID reused by another process (another start time)', reusedPid, true],
  ] as const) {
    it(
      `an owner of this host known dead is taken over at once, its heartbeat fresh: ${what}`,
      () =>
        using({}, async (r) => {
          const dead = await start();
          try {
            const id = await leavePending(r);
            const o = dead.owner;
            await r.withWarehouse((w) =>
              w.query(
                'UPDATE platform_report_tasks SET owner_pid = $pid, owner_host = $host, owner_boot_id = $boot, ' +
                  "owner_start_ticks = $ticks, owner_id = 'another-session', heartbeat_at = $beat WHERE id = $id",
                {
                  id,
                  pid: o.pid,
                  host: o.host,
                  boot: withIdentity ? o.bootId : null,
                  ticks: withIdentity ? o.startTicks : null,
                  beat: new Date(r.h.running.emulator.now() - 1_000),
                },
              ),
            );
            const resumed = await resumePlatformReports(r.ctx(), r.options());
            expect(resumed.skipped).toEqual([]);
            expect(resumed.exitCode).toBe(EXIT.ok);
            expect(resumed.outcomes).toEqual([expect.objectContaining({ id, status: 'completed' })]);
            expect(r.platformTasks()).toHaveLength(1);
          } finally {
            await dead.stop();
          }
        }),
      90_000,
    );
  }

  it(
    'a live owner of this host with a fresh heartbeat keeps the task: skipped as alive',
    () =>
      using({}, async (r) => {
        const live = await liveOwner();
        try {
          const id = await leavePending(r);
          const o = live.owner;
          const beat = r.h.running.emulator.now() - 1_000;
          await r.withWarehouse((w) =>
            w.query(
              'UPDATE platform_report_tasks SET owner_pid = $pid, owner_host = $host, owner_boot_id = $boot, ' +
                "owner_start_ticks = $ticks, owner_id = 'another-session', heartbeat_at = $beat WHERE id = $id",
              { id, pid: o.pid, host: o.host, boot: o.bootId, ticks: o.startTicks, beat: new Date(beat) },
            ),
          );
          const resumed = await resumePlatformReports(r.ctx(), r.options());
          expect(resumed.exitCode).toBe(EXIT.tryLater);
          expect(resumed.skipped).toEqual([
            expect.objectContaining({ id, ownerPid: o.pid, heartbeatAt: beat, ownerState: 'alive' }),
          ]);
        } finally {
          await live.stop();
        }
      }),
    90_000,
  );

  it(
    'an owner with a fresh heartbeat keeps the task, whatever its PID or host: --resume exits 75 naming it',
    () =>
      using({}, async (r) => {
        const id = await leavePending(r);
        const beat = r.h.running.emulator.now() - 1_000;
        await r.withWarehouse((w) =>
          w.query(
            "UPDATE platform_report_tasks SET owner_pid = 999999999, owner_host = 'recreated-container', owner_id = 'another-session', heartbeat_at = $beat WHERE id = $id",
            { id, beat: new Date(beat) },
          ),
        );
        const resumed = await resumePlatformReports(r.ctx(), r.options());
        expect(resumed.exitCode).toBe(EXIT.tryLater);
        expect(resumed.outcomes).toEqual([]);
        expect(resumed.skipped).toEqual([
          {
            id,
            kind: 'messages',
            period: expect.any(String),
            ownerPid: 999999999,
            ownerHost: 'recreated-container',
            ownerId: 'another-session',
            heartbeatAt: beat,
            ownerState: 'unknown',
          },
        ]);
        expect(r.platformTasks()).toHaveLength(1);
        const [record] = await r.records();
        expect(record).toMatchObject({ status: 'pending', owner_id: 'another-session', heartbeat_at: beat });
      }),
    90_000,
  );

  it(
    'the owner refreshes its heartbeat while it waits, and releases the lease when done',
    () =>
      using({ emulator: { reportRowsPerSecond: 2_000 } }, async (r) => {
        const beats = new Set<number>();
        let watching = true;
        const watch = (async () => {
          while (watching) {
            const [row] = await r.withWarehouse((w) =>
              w.query(
                "SELECT heartbeat_at FROM platform_report_tasks WHERE status IN ('creating', 'pending')",
              ),
            );
            if (typeof row?.['heartbeat_at'] === 'number') beats.add(row['heartbeat_at']);
            await new Promise((done) => setTimeout(done, 20));
          }
        })();
        const result = await runPlatformReport(
          r.ctx({ now: Date.now, lease: { beatMs: 50 } }),
          messages,
          r.options({ deadlineMs: 60_000 }),
        );
        watching = false;
        await watch;
        expect(result.exitCode).toBe(EXIT.ok);
        expect(beats.size).toBeGreaterThan(1);
        const [record] = await r.records();
        expect(record).toMatchObject({ status: 'completed', owner_id: null, heartbeat_at: null });
      }),
    90_000,
  );
});
