// Label write-back against the emulator and a real warehouse: dry run, batches, the label_writes record,
// idempotence (a second run sends nothing, checked on the platform before the next sync and in the warehouse
// after it), the sync that shows the labels, refusals before any write, and a batch the platform refuses.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtlError, UsageError } from '../../src/errors.js';
import type { ProjectConnection } from '../../src/manage/connect-project.js';
import { useQuerySandboxAt } from '../../src/manage/use-query-sandbox.js';
import type { UseWarehouse } from '../../src/manage/use-warehouse.js';
import { useWarehouseAt } from '../../src/manage/use-warehouse.js';
import {
  type LabelWriteContext,
  type LabelWriteRequest,
  writeLabels,
} from '../../src/manage/write-labels.js';
import { ReporterHttp } from '../../src/platform/reporter/reporter-http.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { createManageHarness, type ManageHarness } from './manage-harness.js';

// one platform and warehouse for the file (a sync takes seconds): each test uses its own label or rows
let h: ManageHarness;
let conn: ProjectConnection;
beforeAll(async () => {
  h = await createManageHarness();
  // the first sync is the setup, in 4-day windows (a commit each: a quarter of the 12-hour ones' CPU); the
  // syncs under test below keep the harness's 12-hour grid, which the look-back test's ranges depend on
  const summary = await h.sync({}, { REPORTER_WINDOW_HOURS: '96' });
  expect(summary.status).toBe('success');
  conn = await h.connect();
});
afterAll(async () => {
  await conn?.close();
  await h?.close();
});

// runs open the warehouse per step (and syncs take seconds): ~30 s for a test on a loaded 2-core machine
const SLOW = { timeout: 120_000 };
const COMPLAINT = 'Жалоба 😡';
const COMPLAINT_ID = 3;
const RECENT =
  "select session_id from sessions where channel_type in ('viber', 'vk') and start_time >= (select max(start_time) from sessions) - interval 30 hours";

/** The warehouse and the query sandbox opened per step, as the CLI does (never while a test holds it). */
function perStep(lockWaitMs = 5000): Pick<LabelWriteContext, 'useWarehouse' | 'useSandbox'> {
  const where = { path: h.config.warehousePath, lockWaitMs };
  return {
    useWarehouse: useWarehouseAt(where),
    useSandbox: useQuerySandboxAt({ ...where, timeLimit: { ms: 60_000, option: '--sql-timeout' } }),
  };
}

function run(request: Partial<LabelWriteRequest>, ctx: Partial<LabelWriteContext> = {}) {
  return writeLabels(
    {
      http: conn.http,
      ...perStep(),
      ...ctx,
      project: conn.project,
      pageSize: 500,
      lookbackMs: 48 * 3_600_000,
    },
    { target: 'session', label: COMPLAINT, query: RECENT, apply: false, ...request },
  );
}

const ids = async (w: Warehouse, sql: string) =>
  (await w.query(sql)).map((r) => String(r['session_id'] ?? r['question_id']));

describe('label-sessions write-back', SLOW, () => {
  it('a dry run counts, samples and writes nothing', async () => {
    const version = h.stateVersion();
    const picked = await h.withWarehouse((w) => ids(w, RECENT));
    const summary = await run({}).then(async (result) => {
      // ground truth: the platform's own labels of the picked sessions
      const unlabelled = picked.filter((id) => !h.sessionLabelIds(id).includes(COMPLAINT_ID));
      expect(result.selected).toBe(picked.length);
      expect(result.toWrite).toBe(unlabelled.length);
      expect(result.alreadyLabelledInWarehouse + result.alreadyLabelledOnPlatform).toBe(
        picked.length - unlabelled.length,
      );
      expect(result.sample.length).toBe(Math.min(10, unlabelled.length));
      for (const row of result.sample) expect(unlabelled).toContain(row['session_id']);
      expect(await h.withWarehouse((w) => w.query('select * from label_writes'))).toEqual([]);
      return result;
    });
    expect(summary).toMatchObject({ dryRun: true, runId: null, written: 0, label: { id: COMPLAINT_ID } });
    expect(summary.toWrite).toBeGreaterThan(20);
    expect(h.stateVersion()).toBe(version);
  });

  it('--apply writes in batches, records every batch, and a second run changes nothing', async () => {
    const before = await h.withWarehouse((w) => ids(w, 'select session_id from sessions order by 1'));
    const labelsBefore = new Map(before.map((id) => [id, h.sessionLabelIds(id)]));
    const first = await run({ apply: true, batchSize: 20 });
    expect(first.written).toBe(first.toWrite);
    expect(first.batches.length).toBe(Math.ceil((first.toWrite + first.alreadyLabelledOnPlatform) / 20));
    const picked = new Set(await h.withWarehouse((w) => ids(w, RECENT)));
    for (const id of before) {
      const expected = picked.has(id)
        ? [...new Set([...labelsBefore.get(id)!, COMPLAINT_ID])].sort((a, b) => a - b)
        : labelsBefore.get(id);
      expect(h.sessionLabelIds(id), id).toEqual(expected);
    }
    const rows = await h.withWarehouse((w) =>
      w.query(
        'select run_id, batch, batches, written, status, label_name, target, len(object_ids) as n, first_time <= last_time as ordered from label_writes order by batch',
      ),
    );
    expect(rows).toHaveLength(first.batches.length);
    expect(rows.every((r) => r['run_id'] === first.runId && r['status'] === 'success')).toBe(true);
    expect(rows.reduce((sum, r) => sum + (r['written'] as number), 0)).toBe(first.written);
    expect(rows.every((r) => r['n'] === r['written'] && r['ordered'] === true)).toBe(true);
    expect(first.sync).toMatchObject({ coveredByNextSync: true });

    // before any sync: the warehouse still shows no label, the platform check skips everything
    const version = h.stateVersion();
    const second = await run({ apply: true, batchSize: 20 });
    expect(second).toMatchObject({ written: 0, toWrite: 0 });
    expect(second.alreadyLabelledOnPlatform).toBe(first.written + first.alreadyLabelledOnPlatform);
    expect(h.stateVersion()).toBe(version);
    const statuses = await h.withWarehouse((w) =>
      w.query('select status, count(*) as n from label_writes where run_id = $1 group by 1', [second.runId!]),
    );
    expect(statuses).toEqual([{ status: 'unchanged', n: second.batches.length }]);

    // the next sync shows the labels in the warehouse, exactly as the platform has them
    await h.sync();
    await h.withWarehouse(async (w) => {
      for (const id of picked) {
        const rows = await w.query(
          'select label_id from session_labels where session_id = $1 order by label_id',
          [id],
        );
        expect(rows.map((r) => r['label_id'])).toEqual(h.sessionLabelIds(id));
      }
    });
    // now the warehouse alone says there is nothing to do: no batch, no platform read
    const requests = h.requests();
    const third = await run({ apply: true });
    expect(third).toMatchObject({ written: 0, toWrite: 0, batches: [] });
    expect(third.alreadyLabelledInWarehouse).toBe(picked.size);
    expect(h.requests() - requests).toBe(1); // the label catalogue
    expect(h.stateVersion()).toBe(version);
  });

  it('says which range to sync when the labelled sessions are older than the look-back', async () => {
    const old =
      "select session_id from sessions where channel_type = 'chatapi' and start_time < (select min(start_time) from sessions) + interval 12 hours";
    const result = await run({ apply: true, query: old, label: 'Спам' });
    expect(result.written).toBeGreaterThan(0);
    expect(result.sync?.coveredByNextSync).toBe(false);
    await h.sync();
    const stale = await h.withWarehouse((w) =>
      w.query(
        `select count(*) as n from (${old}) q join session_labels l using (session_id) where l.label_id = 4`,
      ),
    );
    const truth = (await h.withWarehouse((w) => ids(w, old))).filter((id) =>
      h.sessionLabelIds(id).includes(4),
    );
    expect(stale[0]!['n']).toBeLessThan(truth.length);
    await h.sync({ from: Date.parse(result.sync!.from), to: Date.parse(result.sync!.to) });
    const synced = await h.withWarehouse((w) =>
      w.query(
        `select count(*) as n from (${old}) q join session_labels l using (session_id) where l.label_id = 4`,
      ),
    );
    expect(synced[0]!['n']).toBe(truth.length);
  });

  it('skips ids the warehouse does not know and reports them', async () => {
    const query =
      "select 'no-such-session' as session_id union all (select session_id from sessions order by start_time desc limit 3)";
    const result = await run({ query, apply: true });
    expect(result).toMatchObject({ selected: 4, unknown: 1, unknownSample: ['no-such-session'] });
    expect(result.written + result.alreadyLabelledOnPlatform + result.alreadyLabelledInWarehouse).toBe(3);
  });

  it('refuses a bad query before any request, and an unknown label before any write', async () => {
    const requests = h.requests();
    const version = h.stateVersion();
    const writes = await h.withWarehouse((w) => w.query('select count(*) as n from label_writes'));
    const refusals: [string, RegExp][] = [
      ['select client_id from sessions', /returns client_id; it must return a column named session_id/],
      ['select session_id, session_id from sessions', /2 columns named session_id/],
      ['select count(*) as session_id from sessions', /session_id as BIGINT/],
      ['delete from sessions', /is not a SELECT \(it is a DELETE statement\)/],
      ['select session_id from sessions; drop table sessions', /holds 2 statements/],
      ['select session_id from sessions; select session_id from sessions', /2 statements/],
      ['select session_id from sesions', /fails on the warehouse: .*sesions/],
      ['select session_id from sessions where', /does not parse/],
      ['  ', /--sql is empty/],
    ];
    for (const [query, message] of refusals) {
      const error = await run({ query, apply: true }).catch((e: unknown) => e);
      expect(error, query).toBeInstanceOf(UsageError);
      expect((error as Error).message, query).toMatch(message);
      expect((error as Error).message, query).not.toMatch(/serialized to json/);
    }
    expect(h.requests()).toBe(requests);
    expect(
      (await h.withWarehouse((w) => w.query('select count(*) as n from sessions')))[0]!['n'],
    ).toBeGreaterThan(0);
    const unknown = await run({ label: 'жалоба 😡', apply: true }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(UsageError);
    expect((unknown as Error).message).toMatch(
      /no session label has this name \(did you mean "Жалоба 😡"\?\)/,
    );
    expect(await h.withWarehouse((w) => w.query('select count(*) as n from label_writes'))).toEqual(writes);
    expect(h.stateVersion()).toBe(version);
  });

  it('runs the query in a read-only sandbox: no file, URL, extension, write or second statement', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-sandbox-'));
    const copied = join(dir, 'copied.csv');
    const attached = join(dir, 'attached.duckdb');
    const OUTSIDE = /may read only the warehouse's tables: files, URLs and extensions are out of its reach/;
    const NOT_SELECT = /--sql is not a SELECT \(it is an? \w+ statement\): the query only chooses rows/;
    const refusals: [string, RegExp][] = [
      ["select content as session_id from read_text('/etc/passwd')", OUTSIDE],
      ["select column0 as session_id from read_csv('/etc/hosts', header = false)", OUTSIDE],
      ["select * from read_parquet('http://127.0.0.1:1/x.parquet')", OUTSIDE],
      [`select session_id from read_csv('${h.running.url}/v1/sessions.csv')`, OUTSIDE],
      [
        `select session_id from sessions where session_id in (select session_id from read_csv('${copied}'))`,
        OUTSIDE,
      ],
      ['install httpfs', NOT_SELECT],
      ['load httpfs', NOT_SELECT],
      [`copy sessions to '${copied}'`, NOT_SELECT],
      [`copy (select session_id from sessions) to '${copied}'`, NOT_SELECT],
      [`attach '${attached}' as other`, NOT_SELECT],
      ['delete from sessions', NOT_SELECT],
      ['set enable_external_access = true', NOT_SELECT],
      [
        "select session_id from sessions limit 1; copy sessions to '/tmp/x.csv'",
        /--sql holds 2 statements: give exactly one SELECT/,
      ],
      ['select session_id from sessions; delete from sessions', /--sql holds 2 statements/],
    ];
    const fingerprint = () =>
      h.withWarehouse(async (w) => ({
        tables: await w.query('select table_name, estimated_size from duckdb_tables() order by 1'),
        sessions: await w.query('select count(*) as n, max(start_time) as t from sessions'),
        writes: await w.query('select count(*) as n from label_writes'),
        databases: await w.query('select database_name from duckdb_databases() order by 1'),
      }));
    const before = await fingerprint();
    const requests = h.requests();
    const version = h.stateVersion();
    for (const apply of [false, true])
      for (const [query, message] of refusals) {
        const error = await run({ query, apply }).catch((e: unknown) => e);
        expect(error, query).toBeInstanceOf(UsageError);
        expect((error as Error).message, query).toMatch(message);
        expect((error as Error).message, query).not.toMatch(/root:|localhost|serialized to json/);
      }
    expect(h.requests()).toBe(requests);
    expect(h.stateVersion()).toBe(version);
    expect(await fingerprint()).toEqual(before);
    expect(existsSync(copied)).toBe(false);
    expect(existsSync(attached)).toBe(false);

    // a plain SELECT over the warehouse still works, dry run and --apply
    const query =
      "select session_id from sessions where channel_type = 'chatwidget' order by start_time desc limit 5";
    const dry = await run({ query, label: 'Успешно' });
    expect(dry.selected).toBe(5);
    const applied = await run({ query, label: 'Успешно', apply: true });
    expect(applied.selected).toBe(5);
    expect(applied.written + applied.alreadyLabelledOnPlatform).toBe(5);
    for (const id of await h.withWarehouse((w) => ids(w, query)))
      expect(h.sessionLabelIds(id)).toContain(applied.label.id);
  });

  it('records a batch the platform refuses, stops, and the next run finishes the job', async () => {
    const TELEGRAM =
      "select session_id from sessions where channel_type = 'telegram' and start_time >= (select max(start_time) from sessions) - interval 30 hours";
    const request = {
      target: 'session',
      label: 'Нужна доработка',
      query: TELEGRAM,
      apply: true,
      batchSize: 10,
    } as const;
    const http = new ReporterHttp({
      baseUrl: h.running.url,
      token: h.config.projects[0]!.token,
      api: 'v1',
      project: 'shop-bot',
      retries: 1,
      backoffBaseMs: 1,
    });
    h.running.emulator.faults.script({ type: 'status503', path: 'bulk-labeling', after: 1, times: 2 });
    const error = await writeLabels({ http, ...perStep(), project: 'shop-bot' }, request).catch(
      (e: unknown) => e,
    );
    await http.close();
    h.running.emulator.faults.assertAllFired();
    expect(error).toBeInstanceOf(EtlError);
    expect((error as EtlError).kind).toBe('transient');
    expect((error as EtlError).message).toMatch(
      /batch 2 of \d+ \(\d+ sessions\) was refused.*10 sessions were labelled/,
    );
    const rows = await h.withWarehouse((w) =>
      w.query('select batch, status, written, error from label_writes where label_id = 2 order by batch'),
    );
    expect(rows.map((r) => [r['batch'], r['status'], r['written']])).toEqual([
      [1, 'success', 10],
      [2, 'failed', 0],
    ]);
    expect(String(rows[1]!['error'])).toMatch(/503/);
    const rest = await run(request);
    expect(rest.alreadyLabelledOnPlatform).toBeGreaterThanOrEqual(10);
    const picked = await h.withWarehouse((w) => ids(w, TELEGRAM));
    for (const id of picked) expect(h.sessionLabelIds(id)).toContain(2);
  });
});

describe('label_writes: each batch recorded before its request, settled after it', SLOW, () => {
  const RESTERISK =
    "select session_id from sessions where channel_type = 'resterisk' and start_time >= (select max(start_time) from sessions) - interval 40 hours";
  const request = { label: 'Успешно', query: RESTERISK, apply: true, batchSize: 4 } as const;

  /** perStep's warehouse, watching label_writes: the row of each write after every step that touched it. */
  function watched(
    lockWaitMs: number,
    afterStep: (writeId: string, status: string) => Promise<void> = async () => {},
  ) {
    const base = perStep(lockWaitMs);
    const seen = new Map<string, string[]>();
    const useWarehouse: UseWarehouse = async (fn) => {
      let touched: { writeId: string; status: string } | undefined;
      const result = await base.useWarehouse(async (w) => {
        let writeId: string | undefined;
        const out = await fn({
          ...w,
          query: (sql, params) => {
            const id = (params as Record<string, unknown> | undefined)?.['write_id'];
            if (/label_writes/.test(sql) && typeof id === 'string') writeId = id;
            return w.query(sql, params);
          },
        });
        if (writeId) {
          const [row] = await w.query('select status from label_writes where write_id = $1', [writeId]);
          touched = { writeId, status: String(row?.['status']) };
        }
        return out;
      });
      if (touched) {
        seen.set(touched.writeId, [...(seen.get(touched.writeId) ?? []), touched.status]);
        await afterStep(touched.writeId, touched.status); // the step's warehouse is closed by now
      }
      return result;
    };
    return { ctx: { useWarehouse, useSandbox: base.useSandbox }, seen };
  }

  it('a written batch goes sending -> success', async () => {
    const { ctx, seen } = watched(5000);
    const summary = await run({ ...request, label: 'Нужна доработка' }, ctx);
    const sent = summary.batches.filter((b) => b.written > 0);
    expect(sent.length).toBeGreaterThan(1);
    for (const b of summary.batches)
      expect(seen.get(`${summary.runId}-${b.batch}`), `batch ${b.batch}`).toEqual(
        b.written > 0 ? ['sending', 'success'] : ['unchanged'],
      );
    const rows = await h.withWarehouse((w) =>
      w.query(
        'select status, count(*) as n, count(finished_at) as finished from label_writes where run_id = $1 group by 1 order by 1',
        [summary.runId!],
      ),
    );
    expect(rows.find((r) => r['status'] === 'success')).toEqual({
      status: 'success',
      n: sent.length,
      finished: sent.length,
    });
    expect(rows.some((r) => r['status'] === 'sending')).toBe(false);
  });

  it('a batch written while another holds the warehouse stays recorded as sending, and the error names it', async () => {
    let holder: Warehouse | undefined;
    let held: Promise<void> | undefined;
    let release = () => {};
    // another writer (a sync committing) takes the warehouse right after batch 2 is recorded as sending, and
    // keeps it (a Warehouse holds the file only inside an operation or a hold())
    const { ctx } = watched(300, async (writeId, status) => {
      if (status !== 'sending' || !writeId.endsWith('-2') || holder) return;
      const other = await openWarehouse({ path: h.config.warehousePath, lockWaitMs: 5000 });
      holder = other;
      await new Promise<void>((opened) => {
        held = other.hold(async () => {
          await other.query('SELECT 1');
          opened();
          await new Promise<void>((resolve) => (release = resolve));
        });
      });
    });
    const error = await run(request, ctx).catch((e: unknown) => e);
    release();
    await held;
    await holder?.close();
    expect(holder).toBeDefined();
    expect(error).toBeInstanceOf(EtlError);
    const message = (error as EtlError).message;
    expect((error as EtlError).kind).toBe('transient'); // exit 75: the warehouse was locked
    const runId = /run_id (\S+), batch 2\)/.exec(message)?.[1];
    expect(message).toMatch(
      /batch 2 of \d+ \(4 sessions\) was written to the platform but could not be settled in label_writes: .*locked.*It stays recorded there as 'sending' \(run_id \S+, batch 2\)/s,
    );
    const rows = await h.withWarehouse((w) =>
      w.query(
        'select batch, status, written, object_ids, finished_at from label_writes where run_id = $1 order by batch',
        [runId!],
      ),
    );
    expect(rows.map((r) => [r['batch'], r['status'], r['written']])).toEqual([
      [1, 'success', 4],
      [2, 'sending', 4],
    ]);
    expect(rows[1]!['finished_at']).toBeNull();
    const unsettledIds = rows[1]!['object_ids'] as string[];
    expect(unsettledIds).toHaveLength(4);
    // the platform has them: the write happened, only its result was not recorded
    for (const id of unsettledIds) expect(h.sessionLabelIds(id)).toContain(1);

    // the next run lists the batch as unsettled, skips what the platform shows labelled, writes the rest
    const version = h.stateVersion();
    const dry = await run({ ...request, apply: false });
    expect(dry.unsettled).toContainEqual(
      expect.objectContaining({ runId, batch: 2, ids: 4, label: 'Успешно' }),
    );
    expect(h.stateVersion()).toBe(version);
    const rest = await run(request);
    expect(rest.unsettled).toContainEqual(expect.objectContaining({ runId, batch: 2 }));
    expect(rest.alreadyLabelledOnPlatform).toBeGreaterThanOrEqual(8);
    for (const id of await h.withWarehouse((w) => ids(w, RESTERISK)))
      expect(h.sessionLabelIds(id)).toContain(1);
  });
});

describe('label-messages write-back', SLOW, () => {
  const QUERY =
    'select question_id from messages where nlp_class = \'/CatchAll\' and "timestamp" >= (select max("timestamp") from messages) - interval 24 hours';

  it('labels messages with a label of a group; a second run sends nothing; the sync shows them', async () => {
    // the warehouse opened per step, as the CLI does
    const runMessages = (apply: boolean) =>
      writeLabels(
        { http: conn.http, ...perStep(), project: 'shop-bot', lookbackMs: 48 * 3_600_000 },
        { target: 'message', label: 'Неверно', group: 'Качество ответа', query: QUERY, apply, batchSize: 25 },
      );
    const dry = await runMessages(false);
    expect(dry.label).toMatchObject({ id: 102, group: 'Качество ответа' });
    expect(dry.sample[0]).toHaveProperty('question');
    const picked = await h.withWarehouse((w) => ids(w, QUERY));
    const unlabelled = picked.filter((id) => !h.messageLabelIds(id).includes(102));
    expect(dry.toWrite).toBe(unlabelled.length);
    const applied = await runMessages(true);
    expect(applied.written).toBe(unlabelled.length);
    for (const id of picked) expect(h.messageLabelIds(id)).toContain(102);
    const version = h.stateVersion();
    const again = await runMessages(true);
    expect(again).toMatchObject({ written: 0, toWrite: 0 });
    expect(h.stateVersion()).toBe(version);
    await h.sync();
    await h.withWarehouse(async (w) => {
      const rows = await w.query(
        `select question_id, list(label_id order by label_id) as labels from message_labels where question_id in (${QUERY}) group by 1`,
      );
      expect(rows).toHaveLength(picked.length);
      for (const row of rows) expect(row['labels']).toEqual(h.messageLabelIds(String(row['question_id'])));
    });
  });

  it('refuses a query returning session ids for messages, and a label name missing from the group', async () => {
    const version = h.stateVersion();
    const wrongColumn = await writeLabels(
      { http: conn.http, ...perStep(), project: 'shop-bot' },
      { target: 'message', label: 'Неверно', query: 'select session_id from messages', apply: true },
    ).catch((e: unknown) => e);
    expect((wrongColumn as Error).message).toMatch(/must return a column named question_id/);
    const wrongGroup = await writeLabels(
      { http: conn.http, ...perStep(), project: 'shop-bot' },
      { target: 'message', label: 'Неверно', group: 'Тематика', query: QUERY, apply: true },
    ).catch((e: unknown) => e);
    expect(wrongGroup).toBeInstanceOf(UsageError);
    expect((wrongGroup as Error).message).toMatch(/no message label has this name in group "Тематика"/);
    expect(h.stateVersion()).toBe(version);
  });
});

describe('a batch whose 2xx answer cannot be read', SLOW, () => {
  const CHATAPI =
    "select session_id from sessions where channel_type = 'chatapi' and start_time >= (select max(start_time) from sessions) - interval 30 hours";

  it('was written: sent once, recorded success with the note, never sent again', async () => {
    // the platform labels the sessions, then its answer is cut short
    h.running.emulator.faults.script({ type: 'truncate', path: 'bulk-labeling', times: 1 });
    h.running.emulator.requestLog = [];
    const summary = await run({ label: 'Нужна доработка', query: CHATAPI, apply: true, batchSize: 1000 });
    const log = h.running.emulator.requestLog;
    h.running.emulator.requestLog = undefined;
    h.running.emulator.faults.assertAllFired();
    expect(log.filter((r) => r.url.includes('bulk-labeling'))).toHaveLength(1);
    expect(summary.written).toBeGreaterThan(0);
    const rows = await h.withWarehouse((w) =>
      w.query('select status, written, error from label_writes where run_id = $1', [summary.runId!]),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'success', written: summary.written });
    expect(String(rows[0]!['error'])).toMatch(
      /was done \(200\) but its answer was cut short .*not sent again/,
    );
    const picked = await h.withWarehouse((w) => ids(w, CHATAPI));
    for (const id of picked) expect(h.sessionLabelIds(id)).toContain(2);
  });
});
