// Every report kind on both API generations against the emulator: the task is created, followed to
// COMPLETED (v1 long-polled events, legacy polled), downloaded with the token, verified, named by kind and
// period, recorded in platform_report_tasks; the file's rows are compared with the emulator's ground truth.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReportSpec } from '../../src/platform-reports/build-create-request.js';
import { parseReportFilter } from '../../src/platform-reports/parse-report-filter.js';
import type { TaskProgress } from '../../src/platform-reports/report-session.js';
import { runPlatformReport } from '../../src/platform-reports/run-platform-report.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { createReportHarness, DAY, fileRows, type ReportHarness, sorted } from './report-harness.js';

/** Runs a test with its own emulator and warehouse (tests of this file run concurrently). */
async function using(
  options: Parameters<typeof createReportHarness>[0],
  test: (r: ReportHarness) => Promise<unknown>,
) {
  const r = await createReportHarness({ shared: true, ...options });
  try {
    await test(r);
    r.h.running.emulator.faults.assertAllFired();
  } finally {
    await r.close();
  }
}

const period = { from: TEST_NOW - DAY, to: TEST_NOW };

/** Client ids whose last session (as of now) started in [from, to): CLIENT_LAST_ACTIVITY_TIME. */
function activeClients(h: ReportHarness['h'], from: number, to: number): string[] {
  const p = h.running.emulator.project('shop-bot');
  const now = h.running.emulator.now();
  const sk = p.skeleton;
  const ids = new Set<string>();
  for (let i = 0; i < sk.sessionCount; i++) {
    const start = sk.start.get(i);
    if (start < from || start >= to || p.withheld.has(i)) continue;
    const c = sk.client.get(i);
    const last = sk.start.get(p.lastSessionOf(c, now));
    if (last >= from && last < to) ids.add(p.clientId(c));
  }
  return [...ids].sort();
}

async function expectKind(
  r: ReportHarness,
  kind: ReportSpec['kind'],
  fileType: 'XLSX' | 'CSV',
  filters: string[] = [],
) {
  const h = r.h;
  const spec: ReportSpec = { kind, period, filters: filters.map(parseReportFilter), fileType };
  const progress: TaskProgress[] = [];
  const result = await runPlatformReport(r.ctx({ onProgress: (p) => progress.push(p) }), spec, r.options());
  expect(result.exitCode, JSON.stringify(result.outcomes)).toBe(0);
  expect(result.outcomes).toHaveLength(1);
  const outcome = result.outcomes[0]!;
  expect(outcome).toMatchObject({ kind, status: 'completed', platformStatus: 'COMPLETED', error: null });
  const ext = fileType === 'CSV' ? 'csv' : 'xlsx';
  expect(outcome.filePath).toMatch(new RegExp(`/${kind}_2026-10-31(_[0-9a-f]{8})?\\.${ext}$`));
  expect(r.files()).toEqual([outcome.filePath!.split('/').at(-1)]);
  expect(progress.at(-1)?.phase).toBe('done');
  const rows = await fileRows(outcome.filePath!);
  const body = rows.slice(1);
  expect(body.length).toBe(outcome.rows);
  expect(outcome.rows).toBe(outcome.totalCount);
  const truth = h.truth(period.from, period.to);
  const ids = sorted(body.map((row) => row[0]));
  switch (kind) {
    case 'sessions':
      expect(rows[0]![0]).toBe('sessionId');
      expect(ids).toEqual(truth.sessionIds);
      break;
    case 'messages':
    case 'daily':
      expect(rows[0]![0]).toBe('questionId');
      expect(ids).toEqual(truth.messageIds);
      break;
    case 'telephony':
      expect(body.length).toBe(truth.byChannel['resterisk']?.sessions ?? 0);
      break;
    case 'clients':
    case 'client-list':
      expect(rows[0]![0]).toBe('clientId');
      expect(ids).toEqual(activeClients(h, period.from, period.to));
      break;
    case 'message-reaction': {
      const p = h.running.emulator.project('shop-bot');
      expect(body.length).toBeGreaterThan(0);
      for (const row of body) {
        const at = p.messageIndex(row[0]!);
        expect(at).toBeDefined();
        expect(p.botIdOf(at!.i)).toBe(p.botIds[0]);
        const t = p.skeleton.messageTime(at!.i, at!.k);
        expect(t >= period.from && t < period.to).toBe(true);
      }
      break;
    }
  }
  const [record] = await r.records();
  expect(record).toMatchObject({
    kind,
    status: 'completed',
    platform_status: 'COMPLETED',
    task_id: outcome.taskId,
    file_path: outcome.filePath,
    file_rows: outcome.rows,
    write_count: outcome.totalCount,
    total_count: outcome.totalCount,
    period_from: period.from,
    period_to: period.to,
    file_type: fileType,
    error: null,
    owner_pid: null,
  });
  expect(record!['finished_at']).toEqual(expect.any(Number));
  expect(record!['request_id'] === null).toBe(h.config.projects[0]!.api === 'legacy');
  expect(r.platformTasks()).toHaveLength(1);
  return { outcome, record: record! };
}

const KINDS: [ReportSpec['kind'], 'XLSX' | 'CSV', string[]][] = [
  ['sessions', 'XLSX', []],
  ['messages', 'CSV', []],
  ['clients', 'CSV', []],
  ['telephony', 'XLSX', []],
  ['daily', 'XLSX', []],
  ['client-list', 'XLSX', []],
];

describe.concurrent('platform reports on v1 (async task, long-polled events)', () => {
  for (const [kind, fileType, filters] of KINDS) {
    it(`${kind} (${fileType})`, () => using({}, (r) => expectKind(r, kind, fileType, filters)));
  }

  it('message-reaction (CSV, v1 only) needs the bot and reads the reactions of the period', () =>
    using({}, async (r) => {
      const bot = r.h.running.emulator.project('shop-bot').botIds[0];
      await expectKind(r, 'message-reaction', 'CSV', [`BOT_ID=${bot}`]);
    }));

  it('progress: writeCount grows to totalCount while the task runs', () =>
    // slow enough for several progress events however loaded the machine is
    using({ emulator: { reportRowsPerSecond: 1_000 } }, async (r) => {
      const progress: TaskProgress[] = [];
      const result = await runPlatformReport(
        r.ctx({ onProgress: (p) => progress.push(p) }),
        { kind: 'messages', period, filters: [], fileType: 'CSV' },
        r.options(),
      );
      expect(result.exitCode).toBe(0);
      const total = r.h.truth(period.from, period.to).messages;
      const waiting = progress.filter((p) => p.phase === 'waiting' && p.status === 'STARTED');
      expect(waiting.length).toBeGreaterThanOrEqual(2);
      const counts = waiting.map((p) => p.writeCount ?? 0);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(counts.some((c) => c > 0 && c < total)).toBe(true);
      for (const p of waiting) expect(p.totalCount).toBe(total);
      expect(progress.map((p) => p.phase)).toContain('downloading');
    }));
});

describe.concurrent('platform reports on legacy (task answered at once, polled)', () => {
  for (const [kind, fileType, filters] of KINDS) {
    it(`${kind} (${fileType})`, () =>
      using({ api: 'legacy' }, (r) => expectKind(r, kind, fileType, filters)));
  }

  it('message-reaction is refused before anything is sent: it exists only in v1', () =>
    using({ api: 'legacy' }, async (r) => {
      await expect(
        runPlatformReport(
          r.ctx(),
          { kind: 'message-reaction', period, filters: [parseReportFilter('BOT_ID=x')], fileType: 'CSV' },
          r.options(),
        ),
      ).rejects.toMatchObject({ kind: 'usage', message: expect.stringMatching(/only in the v1 API/) });
      expect(r.platformTasks()).toHaveLength(0);
      expect(existsSync(join(r.outDir))).toBe(false);
    }));

  it('a filtered report holds only the matching rows and its name carries a hash of the filters', () =>
    using({}, async (r) => {
      const { outcome } = await expectKindFiltered(r);
      expect(outcome.filePath).toMatch(/sessions_2026-10-31_[0-9a-f]{8}\.csv$/);
    }));
});

async function expectKindFiltered(r: ReportHarness) {
  const h = r.h;
  const spec: ReportSpec = {
    kind: 'sessions',
    period,
    filters: [parseReportFilter('CHANNEL_TYPE=telegram,VK')],
    fileType: 'CSV',
  };
  const result = await runPlatformReport(r.ctx(), spec, r.options());
  expect(result.exitCode).toBe(0);
  const outcome = result.outcomes[0]!;
  const rows = await fileRows(outcome.filePath!);
  const channel = rows[0]!.indexOf('channelType');
  const body = rows.slice(1);
  const truth = h.truth(period.from, period.to);
  expect(body.length).toBe(
    (truth.byChannel['telegram']?.sessions ?? 0) + (truth.byChannel['vk']?.sessions ?? 0),
  );
  for (const row of body) expect(['telegram', 'vk']).toContain(row[channel]);
  return { outcome };
}
