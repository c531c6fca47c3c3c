// The emulator's report tasks and async events over real HTTP: every kind on both generations, real-time
// progress, long polling, files read back (exceljs, CSV) against the emulator's ground truth, faults
// (reportFail, duplicateEvent, expiredUrl), deletion, auth and parameter errors, close().
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_READONLY_TOKEN } from '../../src/emulator/emulator.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { LEGACY_TOKEN, reportsApi, request, V1_AUTH } from '../helpers/reports-client.js';
import { parseCsv, readXlsx } from '../helpers/reports-files.js';

const NOW = Date.parse('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BASE = { port: 0, sessions: 300, days: 2, now: NOW };

let main: RunningEmulator;
let slow: RunningEmulator;
let api: ReturnType<typeof reportsApi>;
let slowApi: ReturnType<typeof reportsApi>;

beforeAll(async () => {
  [main, slow] = await Promise.all([
    startEmulator({ ...BASE, reportRowsPerSecond: 20_000 }),
    startEmulator({ ...BASE, reportRowsPerSecond: 1_500, reportUrlTtlMs: 1_000 }),
  ]);
  api = reportsApi(main.url);
  slowApi = reportsApi(slow.url);
});
afterEach(() => {
  for (const running of [main, slow]) {
    running.emulator.faults.assertAllFired();
    running.emulator.faults.clear();
  }
});
afterAll(async () => {
  await Promise.all([main?.close(), slow?.close()]);
});

const project = (running: RunningEmulator = main) => running.emulator.project('shop-bot');
const truth = (from?: number, to?: number, running: RunningEmulator = main) =>
  groundTruth(project(running), {
    now: NOW,
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
  });
const iso = (t: number) => new Date(t).toISOString();
/** An inclusive API range for the truth window [from, to). */
const window = (key: string, from: number, to: number) => ({
  key,
  type: 'DATE_TIME_RANGE',
  from: iso(from),
  to: iso(to - 1),
});
const sorted = (values: unknown[]) => values.map(String).sort();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** `yyyy-MM-dd HH:mm:ss.SSS` of epoch ms shifted by minutes, computed without the emulator's formatter. */
const plainDateTime = (t: number, offsetMinutes = 0) =>
  new Date(t + offsetMinutes * 60_000).toISOString().replace('T', ' ').replace('Z', '');

/** A downloaded report as rows of cells (CSV parsed with `delimiter`, XLSX through exceljs). */
async function fileRows(
  fileUrl: string,
  fileName: string,
  options: {
    delimiter?: string;
    headers?: Record<string, string>;
    using?: ReturnType<typeof reportsApi>;
  } = {},
): Promise<unknown[][]> {
  const file = await (options.using ?? api).download(fileUrl, options.headers ?? V1_AUTH);
  expect(file.status).toBe(200);
  if (fileName.endsWith('.csv'))
    return parseCsv(Buffer.from(file.data).toString('utf8'), options.delimiter ?? ',');
  return (await readXlsx(file.data)).rows;
}

interface KindCase {
  kind: string;
  type: string;
  body?: unknown;
  query?: string;
  firstColumn: string;
  expected?: () => number;
}

function kindCases(): KindCase[] {
  const p = project();
  const all = truth();
  const csv = { settings: { fileType: 'CSV' } };
  return [
    { kind: 'sessions', type: 'SESSIONS', body: csv, firstColumn: 'sessionId', expected: () => all.sessions },
    {
      kind: 'messages',
      type: 'MESSAGES',
      body: csv,
      firstColumn: 'questionId',
      expected: () => all.messages,
    },
    {
      kind: 'clients',
      type: 'CLIENTS',
      body: csv,
      firstColumn: 'clientId',
      expected: () => all.uniqueClients,
    },
    {
      kind: 'telephony',
      type: 'TELEPHONY',
      query: `?startTime=${iso(NOW - 2 * DAY)}&endTime=${iso(NOW)}&botIds=${p.botIds[1]}`,
      firstColumn: 'sessionId',
      expected: () => truth(NOW - 2 * DAY, NOW + 1).byChannel['resterisk']?.sessions ?? 0,
    },
    {
      kind: 'daily',
      type: 'DAILY',
      body: { date: '2026-10-31', ...csv },
      firstColumn: 'questionId',
      expected: () => truth(NOW - DAY, NOW).messages,
    },
    {
      kind: 'client-list',
      type: 'CLIENTS_LIST',
      body: csv,
      firstColumn: 'clientId',
      expected: () => all.uniqueClients,
    },
    {
      kind: 'message-reaction',
      type: 'MESSAGES',
      body: { projectShortName: 'shop-bot', botId: p.botIds[0], ...csv },
      firstColumn: 'questionId',
    },
  ];
}

/** Checks a message-reaction file against the emulator's messages: real ids of the bot, like or dislike. */
function checkReactions(rows: unknown[][], botId: string) {
  const p = project();
  const header = rows[0]!.map(String);
  const reaction = header.indexOf('reaction');
  const body = rows.slice(1);
  expect(body.length).toBeGreaterThan(0);
  expect(body.length).toBeLessThan(truth().messages * 0.15);
  for (const row of body) {
    const at = p.messageIndex(String(row[0]));
    expect(at).toBeDefined();
    expect(p.botIdOf(at!.i)).toBe(botId);
    expect(['like', 'dislike']).toContain(row[reaction]);
  }
}

describe('report kinds', () => {
  it('v1: every kind answers an async request, ends COMPLETED in the events and its file matches the truth', async () => {
    const cases = kindCases();
    const started = await Promise.all(
      cases.map((c) => api.createAsync(c.kind, c.body, { query: c.query ?? '' })),
    );
    await Promise.all(
      cases.map(async (c, n) => {
        const created = started[n]!;
        expect(created.status, `${c.kind}: ${created.text}`).toBe(200);
        let requestId: string;
        if (c.kind === 'client-list') {
          expect(created.text).toBe('');
          requestId = created.headers.get('z-request-id')!;
          expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
          expect(created.headers.get('z-request-time')).toBe(iso(NOW));
        } else {
          expect(created.body).toEqual({ requestId: expect.any(String), requestTime: iso(NOW) });
          requestId = created.body.requestId;
        }
        const events = await api.eventsUntilDone(requestId);
        const last = events.at(-1)!;
        expect(last.isOk, c.kind).toBe(true);
        expect(last.requestId).toBe(requestId);
        const task = last.payload;
        expect(task).toMatchObject({
          status: 'COMPLETED',
          reportType: c.type,
          projectShortName: 'shop-bot',
          accountId: 100500,
        });
        if (c.expected) expect(task.totalCount, c.kind).toBe(c.expected());
        expect(task.writeCount).toBe(task.totalCount);
        expect(task.fileUrl).toBe(
          `${main.url}/api/v1/reporter/reports/files/${task.taskId}/${task.fileName}`,
        );
        const rows = await fileRows(task.fileUrl, task.fileName);
        expect(rows[0]![0]).toBe(c.firstColumn);
        expect(rows.length - 1).toBe(task.totalCount);
        if (c.kind === 'sessions') expect(sorted(rows.slice(1).map((r) => r[0]))).toEqual(truth().sessionIds);
        if (c.kind === 'messages') expect(sorted(rows.slice(1).map((r) => r[0]))).toEqual(truth().messageIds);
        if (c.kind === 'daily')
          expect(sorted(rows.slice(1).map((r) => r[0]))).toEqual(truth(NOW - DAY, NOW).messageIds);
        if (c.kind === 'message-reaction') checkReactions(rows, project().botIds[0]);
        const polled = await request(`${api.v1}/reports/tasks/${task.taskId}`, { headers: V1_AUTH });
        expect(polled.body.status).toBe('COMPLETED');
      }),
    );
  });

  it('v1: the short form POST /reporter/reports/{kind} is an alias of the async operation', async () => {
    const r = await request(`${main.url}/reporter/reports/sessions`, { body: {}, headers: V1_AUTH });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ requestId: expect.any(String), requestTime: iso(NOW) });
    const last = (await api.eventsUntilDone(r.body.requestId)).at(-1);
    expect(last.payload).toMatchObject({
      status: 'COMPLETED',
      reportType: 'SESSIONS',
      totalCount: truth().sessions,
    });
  });

  it('legacy: every kind answers a CREATED task at once, polled to COMPLETED, with a file under the token path', async () => {
    const cases = kindCases().filter((c) => c.kind !== 'message-reaction');
    const created = await Promise.all(
      cases.map((c) => api.createLegacy(c.kind, c.body, { query: c.query ?? '' })),
    );
    await Promise.all(
      cases.map(async (c, n) => {
        const first = created[n]!;
        expect(first.status, `${c.kind}: ${first.text}`).toBe(200);
        expect(first.body).toMatchObject({
          taskId: expect.any(String),
          accountId: 100500,
          creationTime: iso(NOW),
          status: 'CREATED',
          reportType: c.type,
          projectShortName: 'shop-bot',
          writeCount: 0,
        });
        expect(first.body.fileUrl).toBeUndefined();
        const done = await api.legacyUntilDone(first.body.taskId);
        expect(done.status).toBe('COMPLETED');
        if (c.expected) expect(done.totalCount, c.kind).toBe(c.expected());
        expect(done.fileUrl).toBe(
          `${main.url}/api/reporter/p/${LEGACY_TOKEN}/reports/files/${done.taskId}/${done.fileName}`,
        );
        const rows = await fileRows(done.fileUrl, done.fileName, { headers: {} });
        expect(rows[0]![0]).toBe(c.firstColumn);
        expect(rows.length - 1).toBe(done.totalCount);
      }),
    );
    const listed = await request(`${api.legacy}/reports`);
    const ids = listed.body.tasks.map((t: { taskId: string }) => t.taskId);
    for (const first of created) expect(ids).toContain(first.body.taskId);
    expect((await api.createLegacy('message-reaction', {})).status).toBe(404);
  });
});

describe('async events', () => {
  it('a long poll with nothing new blocks for about the timeout, then answers an empty list', async () => {
    const created = await api.createAsync('clients', {});
    const events = await api.eventsUntilDone(created.body.requestId);
    const after = Date.parse(events.at(-1).responseTime);
    const t0 = Date.now();
    const r = await api.events(`?requestId=${created.body.requestId}&timeout=1&startTime=${after}`);
    const elapsed = Date.now() - t0;
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ response: [] });
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(2_500);
    const t1 = Date.now();
    expect(
      (await api.events(`?requestId=${created.body.requestId}&timeout=0&startTime=${after}`)).body,
    ).toEqual({
      response: [],
    });
    expect(Date.now() - t1).toBeLessThan(500);
  });

  it('a long poll returns as soon as an event arrives', async () => {
    const created = await api.createAsync('sessions', {});
    const t0 = Date.now();
    const r = await api.events(`?requestId=${created.body.requestId}&timeout=10`);
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(r.body.response.length).toBeGreaterThan(0);
    expect(r.body.response[0]).toMatchObject({
      isOk: true,
      requestId: created.body.requestId,
      requestTime: iso(NOW),
      payload: { status: 'STARTED', writeCount: 0, totalCount: truth().sessions },
    });
    await api.eventsUntilDone(created.body.requestId);
  });

  it('without requestId the answer holds the events of every request of the account', async () => {
    const a = await api.createAsync('clients', {});
    const b = await api.createAsync('sessions', {});
    await Promise.all([api.eventsUntilDone(a.body.requestId), api.eventsUntilDone(b.body.requestId)]);
    const r = await api.events('?timeout=0');
    const ids = new Set(r.body.response.map((e: { requestId: string }) => e.requestId));
    expect(ids.has(a.body.requestId)).toBe(true);
    expect(ids.has(b.body.requestId)).toBe(true);
    const times = r.body.response.map((e: { responseTime: string }) => Date.parse(e.responseTime));
    for (let n = 1; n < times.length; n++) expect(times[n]).toBeGreaterThan(times[n - 1]);
  });

  it('progress: STARTED, growing writeCount at the configured real-time rate, COMPLETED', async () => {
    const from = NOW - 12 * HOUR;
    const expected = truth(from, NOW, slow).messages;
    expect(expected).toBeGreaterThan(600);
    const created = await slowApi.createAsync('messages', {
      filters: [window('MESSAGE_TIME', from, NOW)],
      settings: { fileType: 'CSV' },
    });
    const events: any[] = [];
    const arrived: number[] = [];
    let after: number | undefined;
    for (;;) {
      const q = `?requestId=${created.body.requestId}&timeout=5${after === undefined ? '' : `&startTime=${after}`}`;
      const r = await slowApi.events(q);
      for (const event of r.body.response) {
        events.push(event);
        arrived.push(Date.now());
        after = Date.parse(event.responseTime);
      }
      if (events.at(-1)?.payload.status === 'COMPLETED') break;
    }
    const statuses = events.map((e) => e.payload.status);
    expect(statuses[0]).toBe('STARTED');
    expect(statuses.at(-1)).toBe('COMPLETED');
    expect(events[0].payload.writeCount).toBe(0);
    const progress = events.slice(1, -1);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (const [n, event] of progress.entries()) {
      expect(event.payload.status).toBe('STARTED');
      expect(event.payload.writeCount).toBeGreaterThan(n === 0 ? 0 : progress[n - 1].payload.writeCount);
      expect(event.payload.writeCount).toBeLessThan(expected);
    }
    for (const event of events) expect(event.payload.totalCount).toBe(expected);
    const done = events.at(-1).payload;
    expect(done.writeCount).toBe(expected);
    expect(done.fileName).toMatch(/\.csv$/);
    // at 1 500 rows per second, writing `expected` rows takes real time
    expect(arrived.at(-1)! - arrived[0]!).toBeGreaterThan((expected / 1_500) * 1000 * 0.7);
  });

  it('a client that disconnects leaves no waiting long poll behind', async () => {
    const controller = new AbortController();
    const poll = api
      .events(`?timeout=20&startTime=${NOW + 30 * DAY}`, controller.signal)
      .catch((e: Error) => e);
    for (let n = 0; n < 100 && main.emulator.reports.pendingPolls === 0; n++) await sleep(10);
    expect(main.emulator.reports.pendingPolls).toBe(1);
    controller.abort();
    expect(await poll).toBeInstanceOf(Error);
    for (let n = 0; n < 100 && main.emulator.reports.pendingPolls > 0; n++) await sleep(10);
    expect(main.emulator.reports.pendingPolls).toBe(0);
  });
});

describe('report files', () => {
  it('XLSX messages report: its questionId column is the truth of the window', async () => {
    const from = NOW - 18 * HOUR;
    const to = NOW - 6 * HOUR;
    const expected = truth(from, to);
    const created = await api.createAsync('messages', {
      filters: [window('MESSAGE_TIME', from, to)],
      settings: { fileType: 'XLSX' },
    });
    const task = (await api.eventsUntilDone(created.body.requestId)).at(-1).payload;
    expect(task.fileName).toMatch(/\.xlsx$/);
    expect(task.totalCount).toBe(expected.messages);
    const file = await api.download(task.fileUrl);
    expect(file.headers.get('content-type')).toContain('spreadsheetml');
    const { rows } = await readXlsx(file.data);
    const header = rows[0]!.map(String);
    expect(header[0]).toBe('questionId');
    for (const column of [
      'sessionId',
      'timestamp',
      'channelType',
      'clientId',
      'question',
      'textAnswer',
      'nlpClass',
      'confidence',
      'labels',
      'comment',
    ]) {
      expect(header).toContain(column);
    }
    const body = rows.slice(1);
    expect(sorted(body.map((r) => r[0]))).toEqual(expected.messageIds);
    // the default dateTimeFormat, in UTC without a Timezone header
    const p = project();
    const timestamp = header.indexOf('timestamp');
    for (const row of body.slice(0, 25)) {
      const at = p.messageIndex(String(row[0]))!;
      expect(row[timestamp]).toBe(plainDateTime(p.skeleton.messageTime(at.i, at.k)));
      expect(row[header.indexOf('sessionId')]).toBe(p.sessionId(at.i));
    }
  });

  it("CSV sessions report with delimiter ';', no header and a Timezone offset", async () => {
    const from = NOW - 30 * HOUR;
    const to = NOW - 6 * HOUR;
    const expected = truth(from, to);
    const created = await api.createAsync(
      'sessions',
      {
        filters: [window('SESSION_START_TIME', from, to)],
        settings: { fileType: 'CSV', delimiter: ';', withHeader: false },
      },
      { headers: { Timezone: '180' } },
    );
    const task = (await api.eventsUntilDone(created.body.requestId)).at(-1).payload;
    expect(task.settings).toMatchObject({ fileType: 'CSV', delimiter: ';', withHeader: false });
    const rows = await fileRows(task.fileUrl, task.fileName, { delimiter: ';' });
    expect(rows.length).toBe(expected.sessions);
    expect(project().sessionIndex(String(rows[0]![0]))).toBeDefined();
    expect(sorted(rows.map((r) => r[0]))).toEqual(expected.sessionIds);
    const width = rows[0]!.length;
    expect(width).toBeGreaterThan(5);
    const p = project();
    for (const row of rows) {
      expect(row.length).toBe(width);
      const i = p.sessionIndex(String(row[0]))!;
      expect(row[1]).toBe(plainDateTime(p.skeleton.start.get(i), 180));
    }
  });

  it('dateTimeFormat patterns with quoted text and an offset are applied at the Timezone offset', async () => {
    const created = await api.createAsync(
      'daily',
      { date: '2026-10-31', settings: { fileType: 'CSV', dateTimeFormat: "dd.MM.yyyy'T'HH:mmXXX" } },
      { headers: { Timezone: '-90' } },
    );
    const task = (await api.eventsUntilDone(created.body.requestId)).at(-1).payload;
    const rows = await fileRows(task.fileUrl, task.fileName);
    const header = rows[0]!.map(String);
    const p = project();
    for (const row of rows.slice(1, 30)) {
      const at = p.messageIndex(String(row[0]))!;
      const local = new Date(p.skeleton.messageTime(at.i, at.k) - 90 * 60_000).toISOString();
      const expected = `${local.slice(8, 10)}.${local.slice(5, 7)}.${local.slice(0, 4)}T${local.slice(11, 16)}-01:30`;
      expect(row[header.indexOf('timestamp')]).toBe(expected);
    }
  });
});

describe('faults', () => {
  it('reportFail: the task ends FAILED, with isOk false and an ErrorDto in its event', async () => {
    const v1Rule = main.emulator.faults.script({ type: 'reportFail', path: 'reports/sessions' });
    const created = await api.createAsync('sessions', {});
    const last = (await api.eventsUntilDone(created.body.requestId)).at(-1);
    expect(v1Rule.fired).toBe(1);
    expect(last.isOk).toBe(false);
    expect(last.error).toEqual({
      error: expect.stringMatching(/^reporter\./),
      message: expect.any(String),
      args: expect.anything(),
    });
    expect(last.error.message.length).toBeGreaterThan(0);
    expect(last.payload.status).toBe('FAILED');
    expect(last.payload.fileUrl).toBeUndefined();

    main.emulator.faults.script({ type: 'reportFail', path: 'reports/clients' });
    const legacy = await api.createLegacy('clients', {});
    expect(legacy.body.status).toBe('CREATED');
    const done = await api.legacyUntilDone(legacy.body.taskId);
    expect(done.status).toBe('FAILED');
    expect(done.fileUrl).toBeUndefined();
  });

  it('duplicateEvent: one event comes twice in the same answer', async () => {
    const created = await api.createAsync('clients', {});
    const events = await api.eventsUntilDone(created.body.requestId);
    const rule = main.emulator.faults.script({ type: 'duplicateEvent', path: 'events' });
    const r = await api.events(`?requestId=${created.body.requestId}&timeout=0`);
    expect(rule.fired).toBe(1);
    expect(r.body.response.length).toBe(events.length + 1);
    const keys = r.body.response.map(
      (e: any) => `${e.responseTime}|${e.payload.status}|${e.payload.writeCount}`,
    );
    expect(new Set(keys).size).toBe(events.length);
    const again = await api.events(`?requestId=${created.body.requestId}&timeout=0`);
    expect(again.body.response.length).toBe(events.length);
  });

  it('expiredUrl: a download answers 410 under the fault, and after reportUrlTtlMs of real time', async () => {
    const created = await api.createAsync('clients', {});
    const task = (await api.eventsUntilDone(created.body.requestId)).at(-1).payload;
    main.emulator.faults.script({ type: 'expiredUrl', path: 'reports/files' });
    const forced = await request(task.fileUrl, { headers: V1_AUTH });
    expect(forced.status).toBe(410);
    expect(forced.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect((await api.download(task.fileUrl)).status).toBe(200);

    const short = await slowApi.createAsync('clients', { settings: { fileType: 'CSV' } });
    const shortTask = (await slowApi.eventsUntilDone(short.body.requestId)).at(-1).payload;
    expect((await slowApi.download(shortTask.fileUrl)).status).toBe(200);
    await sleep(1_100);
    const late = await request(shortTask.fileUrl, { headers: V1_AUTH });
    expect(late.status).toBe(410);
    expect(late.body.error).toEqual(expect.any(String));
  });
});

describe('deleting tasks', () => {
  it('DELETE reports removes completed tasks, DELETE reports/all the rest, DELETE one stops it', async () => {
    const completed = await slowApi.createLegacy('clients', {});
    const done = await slowApi.legacyUntilDone(completed.body.taskId);
    expect(done.status).toBe('COMPLETED');
    const running = await slowApi.createLegacy('messages', {});
    expect((await request(`${slowApi.legacy}/reports`, { method: 'DELETE' })).status).toBe(200);
    let listed = (await request(`${slowApi.legacy}/reports`)).body.tasks.map((t: any) => t.taskId);
    expect(listed).toContain(running.body.taskId);
    expect(listed).not.toContain(completed.body.taskId);
    expect((await request(`${slowApi.legacy}/reports/tasks/${completed.body.taskId}`)).body.status).toBe(
      'DELETED',
    );
    expect((await request(done.fileUrl)).status).toBe(404);

    expect((await request(`${slowApi.v1}/reports/all`, { method: 'DELETE', headers: V1_AUTH })).status).toBe(
      200,
    );
    listed = (await request(`${slowApi.v1}/reports`, { headers: V1_AUTH })).body.tasks;
    expect(listed).toEqual([]);
    expect((await request(`${slowApi.legacy}/reports/tasks/${running.body.taskId}`)).body.status).toBe(
      'DELETED',
    );

    // a running v1 task deleted by id: its last event says DELETED
    const created = await slowApi.createAsync('messages', {});
    const first = await slowApi.events(`?requestId=${created.body.requestId}&timeout=5`);
    const taskId = first.body.response[0].payload.taskId;
    const del = await request(`${slowApi.v1}/reports/tasks/${taskId}`, {
      method: 'DELETE',
      headers: V1_AUTH,
    });
    expect(del.status).toBe(200);
    const last = (await slowApi.eventsUntilDone(created.body.requestId)).at(-1);
    expect(last.payload).toMatchObject({ taskId, status: 'DELETED' });
  });

  it('unknown task ids are a 404 ErrorDto', async () => {
    for (const method of ['GET', 'DELETE']) {
      const r = await request(`${api.legacy}/reports/tasks/no-such-task`, { method });
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({
        error: expect.stringMatching(/^reporter\.not_found/),
        message: expect.any(String),
      });
    }
    expect((await api.events('?requestId=no-such-request&timeout=0')).status).toBe(404);
  });
});

describe('auth and parameters', () => {
  it('401 without a token or with a bad one; 403 for deletes with a read-only token', async () => {
    const noToken = await request(`${main.url}/api/v1/async/reporter/reports/messages`, { body: {} });
    expect(noToken.status).toBe(401);
    expect(noToken.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect((await request(`${main.url}/api/v1/async/events?timeout=0`)).status).toBe(401);
    expect((await request(`${api.v1}/reports`)).status).toBe(401);
    expect((await request(`${api.v1}/reports/files/x/y.csv`)).status).toBe(401);
    expect(
      (await request(`${main.url}/api/reporter/p/not-a-token/reports/messages`, { body: {} })).status,
    ).toBe(401);
    const readOnly = { authorization: `Bearer ${DEFAULT_READONLY_TOKEN}` };
    expect((await request(`${api.v1}/reports/all`, { method: 'DELETE', headers: readOnly })).status).toBe(
      403,
    );
  });

  it('400 naming the field for bad parameters', async () => {
    const count = async () => (await request(`${api.v1}/reports`, { headers: V1_AUTH })).body.tasks.length;
    const before = await count();
    const cases: [Promise<any>, string][] = [
      [api.createAsync('messages', { settings: { fileType: 'PDF' } }), 'settings.fileType'],
      [api.createLegacy('sessions', { settings: { fileType: 'PDF' } }), 'settings.fileType'],
      [api.createAsync('messages', { settings: { withHeader: true } }), 'settings.fileType'],
      [api.createAsync('messages', { settings: { fileType: 'CSV', delimiter: ';;' } }), 'settings.delimiter'],
      [
        api.createAsync('messages', { settings: { fileType: 'CSV', dateTimeFormat: 'yyyy-QQ' } }),
        'settings.dateTimeFormat',
      ],
      [api.createAsync('messages', { filters: [{ key: 'NOPE', type: 'TEXT' }] }), 'filters[0].key'],
      [
        // the vendor's TextFilter requires isCaseSensitive
        api.createAsync('messages', {
          filters: [{ key: 'ANSWER_TEXT', type: 'TEXT', comparisonType: 'CONTAINS', values: ['a'] }],
        }),
        'filters[0].isCaseSensitive',
      ],
      [api.createAsync('daily', { date: '31.10.2026' }), 'date'],
      [api.createAsync('daily', {}), 'date'],
      [api.createAsync('telephony', undefined, { query: '?startTime=yesterday' }), 'startTime'],
      [api.createAsync('message-reaction', { projectShortName: 'shop-bot' }), 'botId'],
      [
        api.createAsync('message-reaction', {
          projectShortName: 'shop-bot',
          botId: 'b',
          messageTimeFrom: 'x',
        }),
        'messageTimeFrom',
      ],
      [api.createAsync('sessions', {}, { headers: { Timezone: 'Europe/Moscow' } }), 'Timezone'],
      [api.events('?timeout=31'), 'timeout'],
      [api.events('?timeout=1&startTime=soon'), 'startTime'],
    ];
    for (const [pending, parameter] of cases) {
      const r = await pending;
      expect(r.status, `${parameter}: ${r.text}`).toBe(400);
      expect(r.body.args?.parameter, r.text).toBe(parameter);
      expect(r.body.message).toContain(parameter);
    }
    // no task was created by a rejected request
    expect(await count()).toBe(before);
  });
});

describe('close()', () => {
  it('answers pending long polls, stops running tasks and removes the report files', async () => {
    const filesDir = await mkdtemp(join(tmpdir(), 'reports-test-'));
    try {
      const closing = await startEmulator({ ...BASE, reportRowsPerSecond: 200, filesDir });
      const closingApi = reportsApi(closing.url);
      const created = await closingApi.createAsync('messages', { settings: { fileType: 'CSV' } });
      const started = await closingApi.events(`?requestId=${created.body.requestId}&timeout=5`);
      expect(started.body.response[0].payload.status).toBe('STARTED');
      expect((await readdir(filesDir)).length).toBe(1);
      const t0 = Date.now();
      const poll = closingApi.events(`?timeout=20&startTime=${NOW + 30 * DAY}`).catch((e: Error) => e);
      for (let n = 0; n < 100 && closing.emulator.reports.pendingPolls === 0; n++) await sleep(10);
      expect(closing.emulator.reports.pendingPolls).toBe(1);
      await closing.close();
      const answered = await poll;
      expect(Date.now() - t0).toBeLessThan(3_000);
      expect(answered).toMatchObject({ status: 200, body: { response: [] } });
      expect(closing.emulator.reports.pendingPolls).toBe(0);
      expect(await readdir(filesDir)).toEqual([]);
    } finally {
      await rm(filesDir, { recursive: true, force: true });
    }
  });
});
