// Label write-back against the emulator and a real warehouse: dry run, batches, the label_writes record,
// idempotence (a second run sends nothing, checked on the platform before the next sync and in the warehouse
// after it), the sync that shows the labels, refusals before any write, and a batch the platform refuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtlError, UsageError } from '../../src/errors.js';
import type { ProjectConnection } from '../../src/manage/connect-project.js';
import { keepOpen, type LabelWriteRequest, writeLabels } from '../../src/manage/write-labels.js';
import { ReporterHttp } from '../../src/reporter/http.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { createManageHarness, type ManageHarness } from './manage-harness.js';

// one platform and warehouse for the file (a sync takes seconds): each test uses its own label or rows
let h: ManageHarness;
let conn: ProjectConnection;
beforeAll(async () => {
  h = await createManageHarness();
  const summary = await h.sync();
  expect(summary.status).toBe('success');
  conn = await h.connect();
});
afterAll(async () => {
  await conn?.close();
  await h?.close();
});

const COMPLAINT = 'Жалоба 😡';
const COMPLAINT_ID = 3;
const RECENT =
  "select session_id from sessions where channel_type in ('viber', 'vk') and start_time >= (select max(start_time) from sessions) - interval 30 hours";

function run(w: Warehouse, request: Partial<LabelWriteRequest>) {
  return writeLabels(
    {
      http: conn.http,
      useWarehouse: keepOpen(w),
      project: conn.project,
      pageSize: 500,
      lookbackMs: 48 * 3_600_000,
    },
    { target: 'session', label: COMPLAINT, query: RECENT, apply: false, ...request },
  );
}

const ids = async (w: Warehouse, sql: string) =>
  (await w.query(sql)).map((r) => String(r['session_id'] ?? r['question_id']));

describe('label-sessions write-back', () => {
  it('a dry run counts, samples and writes nothing', async () => {
    const version = h.stateVersion();
    const summary = await h.withWarehouse(async (w) => {
      const picked = await ids(w, RECENT);
      const result = await run(w, {});
      // ground truth: the platform's own labels of the picked sessions
      const unlabelled = picked.filter((id) => !h.sessionLabelIds(id).includes(COMPLAINT_ID));
      expect(result.selected).toBe(picked.length);
      expect(result.toWrite).toBe(unlabelled.length);
      expect(result.alreadyLabelledInWarehouse + result.alreadyLabelledOnPlatform).toBe(
        picked.length - unlabelled.length,
      );
      expect(result.sample.length).toBe(Math.min(10, unlabelled.length));
      for (const row of result.sample) expect(unlabelled).toContain(row['session_id']);
      expect(await w.query('select * from label_writes')).toEqual([]);
      return result;
    });
    expect(summary).toMatchObject({ dryRun: true, runId: null, written: 0, label: { id: COMPLAINT_ID } });
    expect(summary.toWrite).toBeGreaterThan(20);
    expect(h.stateVersion()).toBe(version);
  });

  it('--apply writes in batches, records every batch, and a second run changes nothing', async () => {
    const before = await h.withWarehouse((w) => ids(w, 'select session_id from sessions order by 1'));
    const labelsBefore = new Map(before.map((id) => [id, h.sessionLabelIds(id)]));
    const first = await h.withWarehouse((w) => run(w, { apply: true, batchSize: 20 }));
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
    const second = await h.withWarehouse((w) => run(w, { apply: true, batchSize: 20 }));
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
      // now the warehouse alone says there is nothing to do: no batch, no platform read
      const requests = h.requests();
      const third = await run(w, { apply: true });
      expect(third).toMatchObject({ written: 0, toWrite: 0, batches: [] });
      expect(third.alreadyLabelledInWarehouse).toBe(picked.size);
      expect(h.requests() - requests).toBe(1); // the label catalogue
    });
    expect(h.stateVersion()).toBe(version);
  });

  it('says which range to sync when the labelled sessions are older than the look-back', async () => {
    const old =
      "select session_id from sessions where channel_type = 'chatapi' and start_time < (select min(start_time) from sessions) + interval 12 hours";
    const result = await h.withWarehouse((w) => run(w, { apply: true, query: old, label: 'Спам' }));
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
    const result = await h.withWarehouse((w) => run(w, { query, apply: true }));
    expect(result).toMatchObject({ selected: 4, unknown: 1, unknownSample: ['no-such-session'] });
    expect(result.written + result.alreadyLabelledOnPlatform + result.alreadyLabelledInWarehouse).toBe(3);
  });

  it('refuses a bad query before any request, and an unknown label before any write', async () => {
    const requests = h.requests();
    const version = h.stateVersion();
    await h.withWarehouse(async (w) => {
      const writes = await w.query('select count(*) as n from label_writes');
      const refusals: [string, RegExp][] = [
        ['select client_id from sessions', /returns client_id; it must return a column named session_id/],
        ['select session_id, session_id from sessions', /2 columns named session_id/],
        ['select count(*) as session_id from sessions', /session_id as BIGINT/],
        ['delete from sessions', /is not a SELECT/],
        ['select session_id from sessions; drop table sessions', /is not a SELECT/],
        ['select session_id from sessions; select session_id from sessions', /2 statements/],
        ['select session_id from sesions', /fails on the warehouse: .*sesions/],
        ['select session_id from sessions where', /does not parse/],
        ['  ', /--sql is empty/],
      ];
      for (const [query, message] of refusals) {
        const error = await run(w, { query, apply: true }).catch((e: unknown) => e);
        expect(error, query).toBeInstanceOf(UsageError);
        expect((error as Error).message, query).toMatch(message);
      }
      expect(h.requests()).toBe(requests);
      expect((await w.query('select count(*) as n from sessions'))[0]!['n']).toBeGreaterThan(0);
      const unknown = await run(w, { label: 'жалоба 😡', apply: true }).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(UsageError);
      expect((unknown as Error).message).toMatch(
        /no session label has this name \(did you mean "Жалоба 😡"\?\)/,
      );
      expect(await w.query('select count(*) as n from label_writes')).toEqual(writes);
    });
    expect(h.stateVersion()).toBe(version);
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
    const error = await h
      .withWarehouse((w) => writeLabels({ http, useWarehouse: keepOpen(w), project: 'shop-bot' }, request))
      .catch((e: unknown) => e);
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
    const rest = await h.withWarehouse((w) => run(w, request));
    expect(rest.alreadyLabelledOnPlatform).toBeGreaterThanOrEqual(10);
    const picked = await h.withWarehouse((w) => ids(w, TELEGRAM));
    for (const id of picked) expect(h.sessionLabelIds(id)).toContain(2);
  });
});

describe('label-messages write-back', () => {
  const QUERY =
    'select question_id from messages where nlp_class = \'/CatchAll\' and "timestamp" >= (select max("timestamp") from messages) - interval 24 hours';

  it('labels messages with a label of a group; a second run sends nothing; the sync shows them', async () => {
    // the warehouse opened per step, as the CLI does
    const runMessages = (apply: boolean) =>
      writeLabels(
        { http: conn.http, useWarehouse: h.withWarehouse, project: 'shop-bot', lookbackMs: 48 * 3_600_000 },
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
    await h.withWarehouse(async (w) => {
      const wrongColumn = await writeLabels(
        { http: conn.http, useWarehouse: keepOpen(w), project: 'shop-bot' },
        { target: 'message', label: 'Неверно', query: 'select session_id from messages', apply: true },
      ).catch((e: unknown) => e);
      expect((wrongColumn as Error).message).toMatch(/must return a column named question_id/);
      const wrongGroup = await writeLabels(
        { http: conn.http, useWarehouse: keepOpen(w), project: 'shop-bot' },
        { target: 'message', label: 'Неверно', group: 'Тематика', query: QUERY, apply: true },
      ).catch((e: unknown) => e);
      expect(wrongGroup).toBeInstanceOf(UsageError);
      expect((wrongGroup as Error).message).toMatch(/no message label has this name in group "Тематика"/);
    });
    expect(h.stateVersion()).toBe(version);
  });
});
