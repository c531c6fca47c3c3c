// Run notifications through Pushgate (REPORTER_PUSHGATE_URL), checked against what the emulated Pushgate
// received: a failed run and a completed daily-report each send one event; a retried push carries the same
// eventId; an undeliverable notification is recorded in etl_runs and leaves the run as it was; the pushback id
// appears in no log line and no recorded error.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDailyReportJob } from '../../../jobs/daily-report.js';
import type { PushReceipt } from '../../../src/emulator/pushgate/pushgate.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { EtlError } from '../../../src/errors.js';
import type { Logger } from '../../../src/log.js';
import { type FinishedJobRun, JobRunner, type RunOutcome } from '../../../src/schedule/job-runner.js';
import { TEST_NOW } from '../../helpers/emulator-client.js';
import { createScheduleHarness, fakeJob, type ScheduleHarness } from '../../schedule/schedule-harness.js';

const PUSHBACK = 'opsA1b2C3d4E5f6G7h8';
let emu: RunningEmulator;
let h: ScheduleHarness | undefined;
let lines: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({ sessions: 50, days: 1, now: TEST_NOW, pushbacks: [{ pushbackId: PUSHBACK }] });
});
afterAll(() => emu.close());
afterEach(() => {
  emu.emulator.faults.assertAllFired();
  emu.emulator.faults.clear();
  h?.close();
  h = undefined;
  lines = [];
});

function capturingLogger(): Logger {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return pino({ level: 'debug' }, sink) as unknown as Logger;
}

function runner(env: Record<string, string> = {}): JobRunner {
  h = createScheduleHarness({
    REPORTER_PUSHGATE_URL: `${emu.url}/pushgate/push_${PUSHBACK}`,
    REPORTER_RETRIES: '3',
    ...env,
  });
  return new JobRunner({
    config: h.config,
    log: capturingLogger(),
    useWarehouse: h.useWarehouse,
    now: h.clock.now,
    notifyBackoffBaseMs: 5,
  });
}

const finished = (o: RunOutcome): FinishedJobRun => {
  if (!o.ran) throw new Error(`skipped: ${o.reason}`);
  return o;
};
const receivedSince = (n: number): PushReceipt[] => emu.emulator.pushgate.receipts(PUSHBACK).slice(n);
const failing = fakeJob('retention', async () => {
  throw new EtlError('warehouse.open_failed', 'disk on fire', { kind: 'transient' });
});
const fakeWriter = (async () => ({
  reportId: 'summary',
  path: '/data/reports/summary-2026-11-20.xlsx',
  bytes: 1234,
  durationMs: 5,
  sheets: [{ name: 'Summary', rows: 3 }],
  files: [{ format: 'xlsx', path: '/data/reports/summary-2026-11-20.xlsx', bytes: 1234 }],
})) as unknown as Parameters<typeof createDailyReportJob>[0];

describe('notifications (REPORTER_PUSHGATE_URL)', () => {
  it('a failed run sends one event with its id, job, status, times and summary; recorded as sent', async () => {
    const before = emu.emulator.pushgate.receipts(PUSHBACK).length;
    const run = finished(await runner().run(failing.job, 'schedule'));
    expect(run.status).toBe('failed');
    const got = receivedSince(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.method).toBe('POST');
    expect(got[0]!.body).toEqual({
      eventId: run.runId,
      job: 'retention',
      status: 'failed',
      startedAt: new Date(run.startedAt).toISOString(),
      finishedAt: new Date(run.startedAt + run.durationMs).toISOString(),
      summary: 'failed: disk on fire',
    });
    const [row] = await h!.runs('retention');
    expect([row!.status, row!.error, row!.notification]).toEqual(['failed', 'disk on fire', 'sent']);
  });

  it('a completed daily-report sends its report path; a successful other job sends nothing', async () => {
    const r = runner();
    const before = emu.emulator.pushgate.receipts(PUSHBACK).length;
    const quiet = finished(await r.run(fakeJob('retention').job, 'manual'));
    expect(quiet.status).toBe('success');
    expect(receivedSince(before)).toHaveLength(0);
    h!.clock.advance(60_000);
    const run = finished(await r.run(createDailyReportJob(fakeWriter), 'schedule'));
    expect(run.status).toBe('success');
    const got = receivedSince(before);
    expect(got.map((g) => g.body)).toEqual([
      expect.objectContaining({
        eventId: run.runId,
        job: 'daily-report',
        status: 'success',
        reportPath: '/data/reports/summary-2026-11-20.xlsx',
      }),
    ]);
    const runs = await h!.runs();
    expect(runs.map((x) => [x.job, x.notification])).toEqual([
      ['daily-report', 'sent'],
      ['retention', null],
    ]);
  });

  it('transient faults are retried: delivered once; a resend after a lost answer carries the same eventId', async () => {
    emu.emulator.faults.script({ type: 'status503', path: 'pushgate' });
    emu.emulator.faults.script({ type: 'status429', path: 'pushgate', retryAfter: 0 });
    const r = runner();
    const before = emu.emulator.pushgate.receipts(PUSHBACK).length;
    const run = finished(await r.run(failing.job, 'schedule'));
    expect(receivedSince(before).map((g) => (g.body as { eventId: string }).eventId)).toEqual([run.runId]);
    // the push is received but its answer comes after the client gave up: the client sends it again
    emu.emulator.faults.script({ type: 'dropAnswer', path: 'pushgate' });
    const second = finished(await r.run(failing.job, 'schedule'));
    const ids = receivedSince(before + 1).map((g) => (g.body as { eventId: string }).eventId);
    expect(ids).toHaveLength(2);
    expect(new Set(ids)).toEqual(new Set([second.runId]));
    expect((await h!.runs('retention')).map((x) => x.notification)).toEqual(['sent', 'sent']);
  });

  it('an undeliverable notification is recorded in etl_runs and never changes the run', async () => {
    const r = runner();
    emu.emulator.faults.script({ type: 'status503', path: 'pushgate', times: 4 });
    const before = emu.emulator.pushgate.receipts(PUSHBACK).length;
    const report = finished(await r.run(createDailyReportJob(fakeWriter), 'schedule'));
    expect([report.status, report.exitCode]).toEqual(['success', 0]);
    expect(report.notification).toMatch(/^failed: .*503/);
    // a deleted pushback: 404, not retried
    emu.emulator.pushgate.delete(PUSHBACK);
    h!.clock.advance(60_000);
    try {
      const failed = finished(await r.run(failing.job, 'schedule'));
      expect([failed.status, failed.error]).toEqual(['failed', 'disk on fire']);
    } finally {
      emu.emulator.pushgate.create(PUSHBACK);
    }
    expect(receivedSince(before)).toHaveLength(0);
    const runs = await h!.runs();
    expect(runs.map((x) => [x.job, x.status, x.notification?.replace(/:.*/s, ':')])).toEqual([
      ['retention', 'failed', 'failed:'],
      ['daily-report', 'success', 'failed:'],
    ]);
    expect(runs[0]!.notification).toMatch(/404|not exist/);
    // the secret is nowhere: not in the recorded outcomes, not in any log line
    for (const run of runs) expect(JSON.stringify(run)).not.toContain(PUSHBACK);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(PUSHBACK);
    expect(lines.join('')).toContain('opsA…');
  });
});
