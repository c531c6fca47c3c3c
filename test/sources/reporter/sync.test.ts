// Sync against the emulator over HTTP into a real DuckDB file, compared with the emulator's ground truth:
// full sync on both generations, incremental sync with live changes, faults, rejects, auth, secrets.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../../src/sources/reporter/run-sync.js';
import { TEST_NOW } from '../../helpers/emulator-client.js';
import { recordArrivals } from '../../helpers/request-arrivals.js';
import {
  createHarness,
  expectWarehouseEqualsTruth as expectEqualsTruth,
  type Harness,
  TWELVE_HOUR_WINDOWS,
  warehouseFigures,
} from '../../helpers/sync-harness.js';

const HOUR = 3_600_000;
const LAG = 5 * 60_000;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const range = (harness = h!) => ({
  from: harness.running.emulator.now() - LAG - 4 * 24 * HOUR,
  to: harness.running.emulator.now() - LAG,
});

async function expectWarehouseEqualsTruth(options: { sessionData: boolean }, harness = h!) {
  const { from, to } = range(harness);
  await expectEqualsTruth(harness, from, to, [
    'sessionIds',
    'messageIds',
    'sessionLabels',
    'messageLabels',
    'statuses',
    ...(options.sessionData ? (['sessionData'] as const) : []),
  ]);
}

/**
 * 500 emulated sessions over the harness's 3 days, not its 1,200: exactness, the faults survived, rejects,
 * retries and the token's absence hold at any size, and every window still has several pages to read (the
 * window split keeps 1,200).
 */
const SMALL = { sessions: 500 };

describe('sync', () => {
  /**
   * One full sync on v1 serves its own checks and the incremental sync after it (last: it moves the emulator's
   * clock).
   */
  it("the run's recorded requests are those the platform answered: a window read ahead is counted once", async () => {
    // statuses read per client: every request goes through the windows' client (a report's are counted apart)
    const env = { ...TWELVE_HOUR_WINDOWS, REPORTER_STATUS_READ: 'by-client' };
    h = await createHarness({ emulator: { sessions: 100 }, env });
    // slow messages pages: the next window, read ahead, makes its requests while this one still reads, and each
    // window's own count from its start held those of the other too (the recorded run said more)
    h.running.emulator.faults.script({ type: 'slow', delayMs: 200, path: 'messages/filter', times: 1_000 });
    const summary = await h.sync();
    expect(summary.status).toBe('success');
    expect(summary.windows).toBeGreaterThanOrEqual(6);
    // the emulator served this sync alone: its count is the truth
    expect(summary.requests).toBe(h.running.emulator.requestCount);
    const [run] = await h.withWarehouse((w) => w.listRuns({ limit: 1 }));
    expect(run).toMatchObject({ runId: summary.runId, requests: summary.requests });
  });

  describe('one full sync on v1', () => {
    let v1: { harness: Harness; summary: SyncSummary };
    beforeAll(async () => {
      const harness = await createHarness({ emulator: SMALL, env: TWELVE_HOUR_WINDOWS });
      v1 = { harness, summary: await harness.sync() };
    }, 60_000);
    afterAll(() => v1?.harness.close());

    it('a full sync on v1 leaves exactly the ground truth in the warehouse', async () => {
      const { harness, summary } = v1;
      expect(summary.error).toBeNull();
      expect(summary.status).toBe('success');
      expect(summary.windows).toBeGreaterThanOrEqual(8);
      await expectWarehouseEqualsTruth({ sessionData: true }, harness);
      const channels = await harness.withWarehouse((w) =>
        w.query('select distinct channel_type from sessions order by 1'),
      );
      expect(channels.map((r) => r['channel_type'])).toEqual([
        'chatapi',
        'chatwidget',
        'resterisk',
        'telegram',
        'viber',
        'vk',
      ]);
      // every message carries its session's channel (messages/filter's channelType, normalised)
      const mismatched = await harness.withWarehouse((w) =>
        w.query(
          'select count(*) as n, count(*) filter (where m.channel_type is distinct from s.channel_type) as bad ' +
            'from messages m join sessions s on s.project = m.project and s.session_id = m.session_id',
        ),
      );
      expect(mismatched[0]?.['n']).toBeGreaterThan(0);
      expect(mismatched[0]?.['bad']).toBe(0);
      const runs = await harness.withWarehouse((w) => w.listRuns({ limit: 5 }));
      expect(runs[0]).toMatchObject({
        status: 'success',
        sessions: summary.sessions,
        messages: summary.messages,
      });
    });

    it('times out a request that hangs, retries it, and completes', async () => {
      // the messages/filter reads (the statuses reports' requests are as many as their timing makes them: a
      // long poll cut at this timeout is asked again, a report not done in time leaves its window per client)
      const reads = (log: { url: string }[]) => log.filter((r) => r.url.includes('/messages/filter')).length;
      // the same sync without the fault, on the same timeout (a request slow under load is asked again in both)
      const baseline = await createHarness({ emulator: SMALL, env: { REPORTER_TIMEOUT_MS: '400' } });
      baseline.running.emulator.requestLog = [];
      await baseline.sync();
      const expectedRequests = reads(baseline.running.emulator.requestLog);
      await baseline.close();

      h = await createHarness({ emulator: SMALL, env: { REPORTER_TIMEOUT_MS: '400' } });
      h.running.emulator.requestLog = [];
      h.running.emulator.faults.script({ type: 'slow', path: 'messages/filter', delayMs: 1500, after: 2 });
      const summary = await h.sync();
      h.running.emulator.faults.assertAllFired();
      expect(summary.error).toBeNull();
      // the hanging request arrived and was never handled (abandoned at the timeout: the emulator counts it,
      // its log of handled requests does not), and sent once more: every messages/filter read was answered
      expect(h.running.emulator.requestCount - h.running.emulator.requestLog.length).toBe(1);
      expect(reads(h.running.emulator.requestLog)).toBe(expectedRequests);
      await expectWarehouseEqualsTruth({ sessionData: true });
    });

    it('incremental sync brings new sessions, status changes and new labels, without duplicates', async () => {
      const { harness, summary: first } = v1;
      expect(first.status).toBe('success');
      // an empty warehouse: every committed record is new
      expect([first.newSessions, first.newMessages]).toEqual([first.sessions, first.messages]);
      const stored = async () =>
        (
          await harness.withWarehouse((w) =>
            w.query('select (select count(*) from sessions) as s, (select count(*) from messages) as m'),
          )
        )[0]!;
      const before = await stored();
      harness.running.emulator.clock.advance(6 * HOUR);
      const second = await harness.sync();
      expect(second.status).toBe('success');
      expect(second.mode).toBe('incremental');
      await expectWarehouseEqualsTruth({ sessionData: true }, harness);
      // the summary tells the new records from those the look-back read again: new = what the warehouse gained
      const after = await stored();
      expect(second.newSessions).toBe(Number(after['s']) - Number(before['s']));
      expect(second.newMessages).toBe(Number(after['m']) - Number(before['m']));
      expect(second.newSessions).toBeGreaterThan(0);
      expect(second.sessions).toBeGreaterThan(second.newSessions);
      const history = await harness.withWarehouse((w) =>
        w.query("select count(*) as n from message_status_history where status = 'READ'"),
      );
      expect(history[0]!['n']).toBeGreaterThan(0);
    });
  });

  /**
   * One full sync on the legacy generation, through a 503 (an error on a URL that holds the token), serves two
   * cases: the warehouse equals the truth, and the token is nowhere.
   */
  describe('one full sync on the legacy generation', () => {
    let legacy: { harness: Harness; summary: SyncSummary };
    beforeAll(async () => {
      const harness = await createHarness({ emulator: SMALL, api: 'legacy' });
      harness.running.emulator.faults.script({ type: 'status503', path: 'sessions/filter' });
      legacy = { harness, summary: await harness.sync() };
    }, 60_000);
    afterAll(() => legacy?.harness.close());

    it('a full sync on the legacy generation matches too (no sessionData there)', async () => {
      const { harness, summary } = legacy;
      expect(summary.status).toBe('success');
      harness.running.emulator.faults.assertAllFired();
      await expectWarehouseEqualsTruth({ sessionData: false }, harness);
    });

    it('never writes the token anywhere (legacy puts it in every URL)', async () => {
      const { harness, summary } = legacy;
      expect(summary.status).toBe('success');
      const token = harness.env['REPORTER_TOKEN']!;
      const files: string[] = [];
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) walk(path);
          else files.push(path);
        }
      };
      walk(harness.dir);
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) expect(readFileSync(file).includes(token), file).toBe(false);
      expect(JSON.stringify(summary)).not.toContain(token);
    });
  });

  it('survives 429, 5xx, dropped connections, truncated and non-JSON bodies, slow answers and page drift', async () => {
    h = await createHarness({ emulator: SMALL });
    const faults = h.running.emulator.faults;
    faults.script({ type: 'status429', path: 'sessions/filter', retryAfter: 0 });
    faults.script({ type: 'status503', path: 'messages/filter', times: 2 });
    faults.script({ type: 'status502', path: 'events' });
    faults.script({ type: 'status500', path: 'clients/filter' });
    faults.script({ type: 'drop', path: 'messages/filter', after: 3 });
    faults.script({ type: 'truncate', path: 'sessions/filter', after: 2 });
    faults.script({ type: 'nonJson', path: 'reports/messages', after: 1 });
    faults.script({ type: 'slow', path: 'sessions/filter', delayMs: 200, after: 4 });
    faults.script({ type: 'pageDrift', path: 'sessions/filter', count: 3, after: 1 });
    const summary = await h.sync({}, { REPORTER_PAGE_SIZE: '100' });
    expect(summary.error).toBeNull();
    faults.assertAllFired();
    await expectWarehouseEqualsTruth({ sessionData: true });
  });

  it('waits out a Retry-After given as an HTTP-date (~2 s) and stays exact', async () => {
    h = await createHarness({ emulator: SMALL });
    const arrivals = recordArrivals(h.running.emulator);
    // the run's first request (nothing else in flight): the next one may only come after the date
    h.running.emulator.faults.script({
      type: 'status429',
      path: 'projects/sessions/count',
      retryAfter: 2,
      retryAfterForm: 'date',
    });
    const summary = await h.sync();
    h.running.emulator.faults.assertAllFired();
    expect(summary.error).toBeNull();
    expect(arrivals[0]!.fault).toBe('status429');
    const waited = arrivals[1]!.at - arrivals[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(1500);
    expect(waited).toBeLessThan(20_000);
    await expectWarehouseEqualsTruth({ sessionData: true });
  }, 90_000);

  it('quarantines invalid records in etl_rejects, loads the rest, ends partial; the next run repairs', async () => {
    h = await createHarness({ emulator: SMALL, env: { REPORTER_MAX_REJECT_SHARE: '0.5' } });
    h.running.emulator.faults.script({ type: 'invalidRecord', path: 'sessions/filter', recordIndex: 1 });
    h.running.emulator.faults.script({
      type: 'invalidRecord',
      path: 'messages/filter',
      variant: 'missingField',
    });
    const summary = await h.sync();
    h.running.emulator.faults.assertAllFired();
    expect(summary.status).toBe('partial');
    expect(summary.exitCode).toBe(3);
    expect(summary.rejects).toBe(2);
    const rejects = await h.withWarehouse((w) =>
      w.query('select endpoint, record_id, raw_json, error from etl_rejects order by endpoint'),
    );
    expect(rejects).toHaveLength(2);
    expect(rejects[0]!['endpoint']).toBe('messages/filter');
    expect(rejects[0]!['error']).toMatch(/questionId/);
    expect(rejects[1]!['endpoint']).toBe('sessions/filter');
    expect(rejects[1]!['error']).toMatch(/startTime/);
    expect(JSON.parse(rejects[1]!['raw_json'] as string).startTime).toBe(12345);
    const { from, to } = range();
    const truth = h.truth(from, to);
    const figures = await h.withWarehouse((w) => warehouseFigures(w, from, to));
    expect(figures.sessionIds.length).toBe(truth.sessions - 1);
    expect(figures.messageIds.length).toBe(truth.messages - 1);
    expect((await h.sync({ full: true })).status).toBe('success');
    await expectWarehouseEqualsTruth({ sessionData: true });
  });

  it('fails when rejects pass the configured share, keeping what was committed', async () => {
    h = await createHarness({
      emulator: SMALL,
      env: { ...TWELVE_HOUR_WINDOWS, REPORTER_MAX_REJECT_SHARE: '0' },
    });
    h.running.emulator.faults.script({ type: 'invalidRecord', path: 'sessions/filter', after: 4 });
    const summary = await h.sync();
    expect(summary.status).toBe('failed');
    expect(summary.error).toMatch(/REPORTER_MAX_REJECT_SHARE/);
    expect(summary.windows).toBeGreaterThan(0);
  });

  it('fails at once on 401 with a message naming REPORTER_TOKEN and the generation', async () => {
    h = await createHarness({ emulator: SMALL });
    const summary = await h.sync({}, { REPORTER_TOKEN: 'not-a-valid-token-123' });
    expect(summary.status).toBe('failed');
    expect(summary.exitCode).toBe(1);
    expect(summary.error).toMatch(/REPORTER_TOKEN/);
    expect(summary.error).toMatch(/REPORTER_API=v1/);
    expect(summary.error).not.toContain('not-a-valid-token-123');
    expect(summary.requests).toBe(1);
  });

  it('records a failed run even when it fails before the project is resolved (refused token, no server)', async () => {
    h = await createHarness({ emulator: SMALL });
    const refused = await h.sync({}, { REPORTER_TOKEN: 'not-a-valid-token-123' });
    expect(refused.exitCode).toBe(1);
    // a port nobody listens on: connections are refused
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = await h.sync(
      {},
      { REPORTER_BASE_URL: `http://127.0.0.1:${port}`, REPORTER_RETRIES: '0', REPORTER_PROJECT: 'shop-bot' },
    );
    expect(unreachable.status).toBe('failed');
    expect(unreachable.exitCode).toBe(75);
    const runs = await h.withWarehouse((w) => w.listRuns({ limit: 10 }));
    const byId = new Map(runs.map((r) => [r.runId, r]));
    expect(byId.get(refused.runId)).toMatchObject({ job: 'sync', status: 'failed', project: null });
    expect(byId.get(refused.runId)?.error).toMatch(/REPORTER_TOKEN/);
    expect(byId.get(refused.runId)?.error).not.toContain('not-a-valid-token-123');
    // the request the platform refused is counted in the record as in the summary (it said 0)
    expect(refused.requests).toBe(h.running.emulator.requestCount);
    expect(byId.get(refused.runId)?.requests).toBe(refused.requests);
    expect(byId.get(unreachable.runId)).toMatchObject({ job: 'sync', status: 'failed', project: 'shop-bot' });
    expect(byId.get(unreachable.runId)?.error).toContain(
      `nothing answers at REPORTER_BASE_URL http://127.0.0.1:${port}: is the address right, is the server running? (ECONNREFUSED;`,
    );
  });

  it('when retries run out the run fails as transient, keeps its windows, and the next run resumes', async () => {
    h = await createHarness({ emulator: SMALL, env: { REPORTER_RETRIES: '2' } });
    h.running.emulator.faults.script({ type: 'status503', path: 'messages/filter', after: 5, times: 1000 });
    const failed = await h.sync();
    expect(failed.status).toBe('failed');
    expect(failed.exitCode).toBe(75);
    expect(failed.error).toMatch(/503/);
    expect(failed.windows).toBeGreaterThan(0);
    h.running.emulator.faults.clear();
    const resumed = await h.sync();
    expect(resumed.status).toBe('success');
    expect(resumed.windows).toBeLessThan(failed.windows + resumed.windows);
    await expectWarehouseEqualsTruth({ sessionData: true });
  });

  it('splits windows that hold too many sessions and backfills without moving the watermark', async () => {
    // the harness's 1,200 sessions: enough in a window to split it more than once
    h = await createHarness({ env: { REPORTER_WINDOW_MAX_SESSIONS: '10' } });
    const back = await h.sync({ from: TEST_NOW - 30 * HOUR, to: TEST_NOW - 20 * HOUR });
    expect(back.status).toBe('success');
    expect(back.watermark).toBeNull();
    expect(back.windows).toBeGreaterThan(4);
    expect(await h.withWarehouse((w) => w.getWatermark('shop-bot'))).toBeUndefined();
    const t = h.truth(TEST_NOW - 30 * HOUR, TEST_NOW - 20 * HOUR);
    const figures = await h.withWarehouse((w) =>
      warehouseFigures(w, TEST_NOW - 30 * HOUR, TEST_NOW - 20 * HOUR),
    );
    expect(figures.sessionIds).toEqual(t.sessionIds);
    expect(figures.messageIds).toEqual(t.messageIds);
  });
});
