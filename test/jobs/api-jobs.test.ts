// The jobs that talk to the platform, run by the JobRunner against the emulator: `sync` leaves the warehouse
// equal to the ground truth and records one row per project with job=sync and the trigger (a sync that fails
// before its own row exists gets a failed row); `platform-daily` downloads the messages report of yesterday
// in REPORTER_TZ, whose ids are exactly the emulator's messages of that local day. A sync job refused by the
// lease of another sync of its project does no work: no Chat API channel is read.
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { platformDailyJob } from '../../jobs/platform-daily.js';
import { syncJob } from '../../jobs/sync.js';
import { type Config, loadConfig } from '../../src/config.js';
import { defaultChatApiToken } from '../../src/emulator/chatapi/channels.js';
import { createLogger, type Logger, silentLogger } from '../../src/log.js';
import type { UseWarehouse } from '../../src/manage/use-warehouse.js';
import { type FinishedJobRun, JobRunner } from '../../src/schedule/job-runner.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { readXlsx } from '../helpers/reports-files.js';
import { createHarness, type Harness, warehouseFigures } from '../helpers/sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;

function runnerFor(harness: Harness, config: Config, log: Logger = silentLogger()): JobRunner {
  const useWarehouse: UseWarehouse = async (fn) => {
    const w = await openWarehouse({
      path: config.warehousePath,
      lockWaitMs: 2000,
      now: () => harness.running.emulator.now(),
    });
    try {
      return await fn(w);
    } finally {
      await w.close();
    }
  };
  return new JobRunner({
    config,
    log,
    useWarehouse,
    now: () => harness.running.emulator.now(),
  });
}

describe('sync job', () => {
  it('syncs every project to the ground truth and records its own rows with the trigger', async () => {
    h = await createHarness({ emulator: { sessions: 600 } });
    const runner = runnerFor(h, h.config);
    const first = (await runner.run(syncJob, 'schedule')) as FinishedJobRun;
    expect(first.status, first.error ?? '').toBe('success');
    h.running.emulator.clock.advance(HOUR);
    const second = (await runner.run(syncJob, 'manual')) as FinishedJobRun;
    expect(second.status, second.error ?? '').toBe('success');
    const to = h.running.emulator.now() - 5 * 60_000;
    const from = to - 4 * 24 * HOUR;
    const truth = h.truth(from, to);
    const figures = await h.withWarehouse((w) => warehouseFigures(w, from, to));
    expect(figures.duplicates).toBe(0);
    expect(figures.sessionIds).toEqual(truth.sessionIds);
    expect(figures.messageIds).toEqual(truth.messageIds);
    // each run of the job once: the sync's own rows, nothing added by the runner
    const runs = await h.withWarehouse((w) => w.listRuns({ job: 'sync', limit: 10 }));
    expect(runs.map((r) => [r.runId, r.project, r.trigger, r.status])).toEqual([
      [second.runId, 'shop-bot', 'manual', 'success'],
      [first.runId, 'shop-bot', 'schedule', 'success'],
    ]);
  });

  it('a sync refused by the lease of a running sync of its project reads no Chat API channel', async () => {
    h = await createHarness({
      emulator: { sessions: 200 },
      env: {
        REPORTER_CHATAPI_CHANNELS: `site=${defaultChatApiToken('shop-bot')}`,
        REPORTER_PROJECT: 'shop-bot',
      },
    });
    const runner = runnerFor(h, h.config);
    const first = (await runner.run(syncJob, 'schedule')) as FinishedJobRun;
    expect(first.status, first.error ?? '').toBe('success');
    const e = h.running.emulator;
    const held = await openWarehouse({ path: h.config.warehousePath, lockWaitMs: 2000, now: () => e.now() });
    try {
      await held.startRun({
        runId: 'held-by-another-sync',
        project: 'shop-bot',
        job: 'sync',
        trigger: 'manual',
      });
    } finally {
      await held.close();
    }
    e.requestLog = [];
    const refused = (await runner.run(syncJob, 'schedule')) as FinishedJobRun;
    expect(refused.status).toBe('failed');
    expect(refused.exitCode).toBe(75);
    expect(refused.error).toContain('held-by-another-sync');
    expect(e.requestLog).toEqual([]);
    e.requestLog = undefined;
  });

  it('a sync that fails before it could record itself (refused token) is recorded as failed', async () => {
    h = await createHarness({ emulator: { sessions: 100 } });
    const config = loadConfig({ ...h.env, REPORTER_TOKEN: 'wrong-token-123', REPORTER_RETRIES: '0' });
    const outcome = (await runnerFor(h, config).run(syncJob, 'schedule')) as FinishedJobRun;
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/REPORTER_TOKEN/);
    const runs = await h.withWarehouse((w) => w.listRuns({ job: 'sync', limit: 10 }));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: outcome.runId, trigger: 'schedule', status: 'failed' });
    expect(runs[0]!.error).toMatch(/REPORTER_TOKEN/);
    expect(runs[0]!.error).not.toContain('wrong-token-123');
  });
});

describe('platform-daily job', () => {
  it("downloads the platform's messages report of yesterday in REPORTER_TZ", async () => {
    h = await createHarness({
      emulator: { sessions: 300, days: 2, reportRowsPerSecond: 500_000 },
      env: { REPORTER_TZ: 'Europe/Moscow' },
    });
    const config = loadConfig({ ...h.env, REPORTER_TZ: 'Europe/Moscow' });
    // the emulator's now is 2026-11-01T00:00Z = 03:00 in Moscow: yesterday is 2026-10-31 MSK
    const from = Date.parse('2026-10-30T21:00:00Z');
    const to = Date.parse('2026-10-31T21:00:00Z');
    const logFile = join(mkdtempSync(join(tmpdir(), 'platform-daily-log-')), 'log.jsonl');
    const fd = openSync(logFile, 'w');
    const log = createLogger({ level: 'debug', destination: fd, format: 'json' });
    const outcome = (await runnerFor(h, config, log).run(platformDailyJob, 'schedule')) as FinishedJobRun;
    closeSync(fd);
    expect(outcome.status, outcome.error ?? '').toBe('success');
    // every log line names its job once (a repeated key is ambiguous JSON)
    const lines = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.split('"job":').length, line).toBeLessThanOrEqual(2);
    expect(lines.some((l) => JSON.parse(l).job === 'platform-daily')).toBe(true);
    const records = await h.withWarehouse((w) =>
      w.query('select kind, period_from, period_to, status, file_path from platform_report_tasks'),
    );
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: 'messages',
      period_from: from,
      period_to: to,
      status: 'completed',
    });
    const path = String(records[0]!['file_path']);
    expect(path.startsWith(join(h.dir, 'platform-reports'))).toBe(true);
    const buffer = readFileSync(path);
    const { rows } = await readXlsx(
      buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
    );
    const ids = rows
      .slice(1)
      .map((r) => String(r[0]))
      .sort();
    const truth = h.truth(from, to);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(truth.messageIds);
    const runs = await h.withWarehouse((w) => w.listRuns({ job: 'platform-daily', limit: 10 }));
    expect(runs.map((r) => [r.runId, r.trigger, r.status])).toEqual([[outcome.runId, 'schedule', 'success']]);
  });
});
