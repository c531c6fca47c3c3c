// Failures of platform report tasks against the emulator: a FAILED task (with the platform's error), the
// deadline passing (the task stays pending and a resume finishes it, created once), an expired file URL
// (requested again), duplicated events and events of other requests (ignored), an unanswered create (the
// platform's task list decides: adopted, or sent once), a request the platform no longer knows, a stop
// while waiting followed by the next run (never created twice).
import { once } from 'node:events';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { ReportSpec } from '../../src/platform-reports/build-create-request.js';
import { buildCreateRequest } from '../../src/platform-reports/build-create-request.js';
import { resumePlatformReports } from '../../src/platform-reports/resume-platform-reports.js';
import { runPlatformReport } from '../../src/platform-reports/run-platform-report.js';
import { type TaskRecord, TaskStore } from '../../src/platform-reports/task-store.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { reportsApi } from '../helpers/reports-client.js';
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
const messages: ReportSpec = { kind: 'messages', period, filters: [], fileType: 'CSV' };

/** A platform_report_tasks record before its create request: a v1 `messages` CSV task of shop-bot over
 * `period`, owned by no process, with the fields a test sets. */
function taskRecord(
  r: ReportHarness,
  fields: Partial<TaskRecord> & { id: string },
): Omit<TaskRecord, 'createdAt' | 'updatedAt'> {
  return {
    project: 'shop-bot',
    api: 'v1',
    baseUrl: r.h.running.url,
    kind: 'messages',
    periodFrom: period.from,
    periodTo: period.to,
    filters: [],
    fileType: 'CSV',
    request: buildCreateRequest(messages, 'v1', 'shop-bot'),
    requestId: null,
    requestTime: null,
    taskId: null,
    status: 'creating',
    platformStatus: null,
    writeCount: null,
    totalCount: null,
    fileName: null,
    filePath: `${r.outDir}/messages_2026-10-31.csv`,
    fileRows: null,
    lastEventTime: null,
    tasksBefore: null,
    replaces: null,
    finishedAt: null,
    ownerPid: null,
    ownerHost: null,
    ownerBootId: null,
    ownerStartTicks: null,
    ownerId: null,
    heartbeatAt: null,
    error: null,
    ...fields,
  };
}

describe.concurrent('a task that fails on the platform', () => {
  it('v1: FAILED with the platform error; recorded failed; no file; exit 1', () =>
    using({}, async (r) => {
      r.h.running.emulator.faults.script({ type: 'reportFail' });
      const result = await runPlatformReport(r.ctx(), messages, r.options());
      expect(result.exitCode).toBe(1);
      const [outcome] = result.outcomes;
      expect(outcome).toMatchObject({ status: 'failed', platformStatus: 'FAILED', filePath: null });
      expect(outcome!.error).toMatch(/the platform reports the task FAILED: .*storage refused the file/);
      const [record] = await r.records();
      expect(record).toMatchObject({ status: 'failed', platform_status: 'FAILED', error: outcome!.error });
      expect(r.files()).toEqual([]);
    }));

  it('legacy: FAILED (the task answer carries no reason); recorded failed; exit 1', () =>
    using({ api: 'legacy' }, async (r) => {
      r.h.running.emulator.faults.script({ type: 'reportFail' });
      const result = await runPlatformReport(r.ctx(), messages, r.options());
      expect(result.exitCode).toBe(1);
      expect(result.outcomes[0]).toMatchObject({ status: 'failed', platformStatus: 'FAILED' });
      expect(result.outcomes[0]!.error).toMatch(/FAILED: no reason given/);
    }));
});

describe.concurrent('the deadline', () => {
  for (const api of ['v1', 'legacy'] as const) {
    it(`${api}: passes with the task running: it stays pending (exit 75), then --resume finishes it without creating it again`, () =>
      using({ api, emulator: { reportRowsPerSecond: 1_500 } }, async (r) => {
        const first = await runPlatformReport(
          r.ctx(),
          messages,
          r.options({ deadlineMs: 300, pollSeconds: 1 }),
        );
        expect(first.exitCode).toBe(75);
        expect(first.outcomes[0]).toMatchObject({ status: 'pending', filePath: null });
        expect(first.outcomes[0]!.error).toMatch(/when the deadline passed; it stays pending: .*--resume/);
        const [pending] = await r.records();
        expect(pending).toMatchObject({ status: 'pending', owner_pid: null });
        expect(pending![api === 'v1' ? 'request_id' : 'task_id']).toEqual(expect.any(String));
        expect(r.platformTasks()).toHaveLength(1);
        expect(r.platformTasks()[0]!.status).not.toBe('COMPLETED');

        const resumed = await resumePlatformReports(r.ctx(), r.options());
        expect(resumed.exitCode).toBe(0);
        expect(resumed.outcomes).toHaveLength(1);
        expect(resumed.outcomes[0]).toMatchObject({ id: pending!['id'], status: 'completed' });
        expect(r.platformTasks()).toHaveLength(1);
        expect(r.files()).toEqual(['messages_2026-10-31.csv']);
        const rows = await fileRows(resumed.outcomes[0]!.filePath!);
        expect(sorted(rows.slice(1).map((row) => row[0]))).toEqual(
          r.h.truth(period.from, period.to).messageIds,
        );
        // nothing left to resume
        expect((await resumePlatformReports(r.ctx(), r.options())).outcomes).toEqual([]);
      }));
  }
});

describe.concurrent('an expired file URL', () => {
  it('the report is requested again: the expired record points to nothing, the new one replaces it', () =>
    using({}, async (r) => {
      r.h.running.emulator.faults.script({ type: 'expiredUrl' });
      const result = await runPlatformReport(r.ctx(), messages, r.options());
      expect(result.exitCode).toBe(0);
      const [expired, again] = result.outcomes;
      expect(expired).toMatchObject({ status: 'expired', platformStatus: 'COMPLETED', filePath: null });
      expect(expired!.error).toMatch(/expired \(410\).*requested again/);
      expect(again).toMatchObject({ status: 'completed', replaces: expired!.id });
      expect(again!.taskId).not.toBe(expired!.taskId);
      expect(r.platformTasks()).toHaveLength(2);
      expect(r.files()).toEqual(['messages_2026-10-31.csv']);
      const records = await r.records();
      expect(records.find((x) => x['id'] === expired!.id)).toMatchObject({ status: 'expired' });
      expect(records.find((x) => x['id'] === again!.id)).toMatchObject({
        status: 'completed',
        replaces: expired!.id,
      });
    }));
});

/** A proxy in front of the emulator that drops requestId from event polls: answers then hold every request's events. */
async function startEventsProxy(
  target: string,
): Promise<{ url: string; requestIds: Set<string>; close(): Promise<void> }> {
  const upstream = new URL(target);
  let self = '';
  /** Request ids seen in the answers of async events that went through the proxy. */
  const requestIds = new Set<string>();
  const proxy = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    if (url.pathname === '/api/v1/async/events') url.searchParams.delete('requestId');
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: url.pathname + url.search,
        method: req.method,
        headers: req.headers,
      },
      async (answer) => {
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        let body = Buffer.concat(chunks);
        const headers = { ...answer.headers };
        if (String(headers['content-type']).includes('json')) {
          // file URLs name the emulator: make them name the proxy, as a real gateway would
          body = Buffer.from(body.toString('utf8').split(upstream.origin).join(self));
          if (url.pathname === '/api/v1/async/events')
            for (const event of JSON.parse(body.toString('utf8')).response) requestIds.add(event.requestId);
          headers['content-length'] = String(body.length);
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(body);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  self = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url: self,
    requestIds,
    async close() {
      proxy.closeAllConnections();
      await new Promise((done) => proxy.close(done));
    },
  };
}

describe.concurrent('events that are not ours, or not new', () => {
  it('events of other requests in the same answer and duplicated events are ignored', () =>
    using({ emulator: { reportRowsPerSecond: 4_000 } }, async (r) => {
      const proxy = await startEventsProxy(r.h.running.url);
      try {
        // a report of someone else on the same account, finishing before ours
        const other = await reportsApi(r.h.running.url).createAsync('clients', {
          settings: { fileType: 'XLSX' },
        });
        expect(other.status).toBe(200);
        r.h.running.emulator.faults.script({ type: 'duplicateEvent', times: 3 });
        const config = loadConfig({ ...r.h.env, REPORTER_BASE_URL: proxy.url });
        const result = await runPlatformReport(
          r.ctx({ config, project: config.projects[0]! }),
          messages,
          r.options(),
        );
        expect(result.exitCode, JSON.stringify(result.outcomes)).toBe(0);
        const outcome = result.outcomes[0]!;
        expect(outcome.taskId).not.toBe(r.platformTasks().find((t) => t.kind === 'clients')!.taskId);
        const rows = await fileRows(outcome.filePath!);
        expect(rows[0]![0]).toBe('questionId');
        expect(sorted(rows.slice(1).map((row) => row[0]))).toEqual(
          r.h.truth(period.from, period.to).messageIds,
        );
        expect(r.platformTasks()).toHaveLength(2);
        // the answers did carry the other request's events
        expect(proxy.requestIds).toEqual(new Set([other.body.requestId, outcome.requestId]));
      } finally {
        await proxy.close();
      }
    }));
});

describe.concurrent('a create request without a clear answer', () => {
  it('a dropped connection: the platform lists no new task, so it is sent once more: one task in all', () =>
    using({}, async (r) => {
      const rule = r.h.running.emulator.faults.script({
        type: 'drop',
        path: 'reports/messages',
        method: 'POST',
      });
      const result = await runPlatformReport(r.ctx(), messages, r.options());
      expect(rule.fired).toBe(1);
      expect(result.exitCode).toBe(0);
      expect(result.outcomes[0]!.status).toBe('completed');
      expect(r.platformTasks()).toHaveLength(1);
    }));

  it('a create that never gets an answer: nothing on the platform, recorded failed, exit 75 (try again)', () =>
    using({}, async (r) => {
      // REPORTER_RETRIES=4: five attempts, all dropped
      r.h.running.emulator.faults.script({
        type: 'drop',
        path: 'reports/messages',
        method: 'POST',
        times: 5,
      });
      await expect(runPlatformReport(r.ctx(), messages, r.options())).rejects.toMatchObject({
        code: 'platform_report.create_failed',
        kind: 'transient',
        message: expect.stringMatching(/did not create the messages report after 5 attempts/),
      });
      expect(r.platformTasks()).toHaveLength(0);
      expect((await r.records())[0]).toMatchObject({ status: 'failed', task_id: null, request_id: null });
    }));

  it('after a crash between sending and recording: the task the platform made is adopted, not created again', () =>
    using({}, async (r) => {
      const h = r.h;
      const store = new TaskStore(r.withWarehouse, () => h.running.emulator.now());
      const tasksBefore = r.platformTasks().map((t) => t.taskId);
      const request = buildCreateRequest(messages, 'v1', 'shop-bot');
      const record = await store.insert(
        taskRecord(r, {
          id: 'crashed-create',
          request,
          tasksBefore,
          ownerPid: 999_999_999,
          ownerHost: 'elsewhere',
        }),
      );
      // the platform received the create request; the process died before recording the answer
      const sent = await reportsApi(h.running.url).createAsync('messages', request.body);
      expect(sent.status).toBe(200);
      const resumed = await resumePlatformReports(r.ctx(), r.options());
      expect(resumed.exitCode).toBe(0);
      expect(resumed.outcomes[0]).toMatchObject({ id: record.id, status: 'completed' });
      expect(r.platformTasks()).toHaveLength(1);
      expect(resumed.outcomes[0]!.taskId).toBe(r.platformTasks()[0]!.taskId);
      expect(r.files()).toEqual(['messages_2026-10-31.csv']);
    }));

  it('after a crash before the request left: nothing on the platform, so the resume sends it (once)', () =>
    using({}, async (r) => {
      const h = r.h;
      const store = new TaskStore(r.withWarehouse, () => h.running.emulator.now());
      await store.insert(
        taskRecord(r, {
          id: 'never-sent',
          kind: 'sessions',
          fileType: 'XLSX',
          request: buildCreateRequest({ ...messages, kind: 'sessions', fileType: 'XLSX' }, 'v1', 'shop-bot'),
          filePath: `${r.outDir}/sessions_2026-10-31.xlsx`,
          tasksBefore: [],
        }),
      );
      const resumed = await resumePlatformReports(r.ctx(), r.options());
      expect(resumed.outcomes[0]).toMatchObject({ id: 'never-sent', status: 'completed' });
      expect(r.platformTasks()).toHaveLength(1);
      expect(r.files()).toEqual(['sessions_2026-10-31.xlsx']);
    }));
});

describe.concurrent('a request the platform no longer knows', () => {
  it('the pending record fails with a message naming the request (404 on async events)', () =>
    using({}, async (r) => {
      const h = r.h;
      const store = new TaskStore(r.withWarehouse, () => h.running.emulator.now());
      await store.insert(
        taskRecord(r, {
          id: 'forgotten',
          requestId: '00000000-0000-4000-a000-000000000000',
          status: 'pending',
        }),
      );
      const resumed = await resumePlatformReports(r.ctx(), r.options());
      expect(resumed.exitCode).toBe(1);
      expect(resumed.outcomes[0]!.status).toBe('failed');
      expect(resumed.outcomes[0]!.error).toMatch(
        /no longer knows request 00000000-0000-4000-a000-000000000000/,
      );
      expect(r.platformTasks()).toHaveLength(0);
    }));
});

describe.concurrent('a stop while waiting, then the next run', () => {
  it('the same report asked again: the open task is finished, not created again', () =>
    using({ emulator: { reportRowsPerSecond: 1_500 } }, async (r) => {
      const stop = new AbortController();
      const first = runPlatformReport(r.ctx({ signal: stop.signal }), messages, r.options());
      while (r.h.running.emulator.reports.pendingPolls === 0)
        await new Promise((done) => setTimeout(done, 10));
      stop.abort(new Error('stopped'));
      await expect(first).rejects.toThrow();
      expect((await r.records())[0]).toMatchObject({ status: 'pending' });
      const again = await runPlatformReport(r.ctx(), messages, r.options());
      expect(again.exitCode).toBe(0);
      expect(again.outcomes).toHaveLength(1);
      expect(again.outcomes[0]!.status).toBe('completed');
      expect(r.platformTasks()).toHaveLength(1);
      expect(r.files()).toEqual(['messages_2026-10-31.csv']);
    }));

  it('another report asked: the open task is resumed first, then the new one is created', () =>
    using({ emulator: { reportRowsPerSecond: 1_500 } }, async (r) => {
      const stop = new AbortController();
      const first = runPlatformReport(r.ctx({ signal: stop.signal }), messages, r.options());
      while (r.h.running.emulator.reports.pendingPolls === 0)
        await new Promise((done) => setTimeout(done, 10));
      stop.abort(new Error('stopped'));
      await expect(first).rejects.toThrow();
      const next = await runPlatformReport(
        r.ctx(),
        { kind: 'sessions', period, filters: [], fileType: 'CSV' },
        r.options(),
      );
      expect(next.exitCode).toBe(0);
      expect(next.outcomes.map((o) => [o.kind, o.status])).toEqual([
        ['messages', 'completed'],
        ['sessions', 'completed'],
      ]);
      expect(r.platformTasks()).toHaveLength(2);
      expect(r.files()).toEqual(['messages_2026-10-31.csv', 'sessions_2026-10-31.csv']);
    }));
});
