// commitWindow against a real DuckDB file: load, replace on a second commit without duplicates, status
// history with first-seen times, sessionData only where read, the watermark in the same transaction,
// and a failed batch that leaves nothing behind. Expected values are written out, not read from the code.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EtlError } from '../../src/errors.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import {
  HOUR,
  makeBatch,
  makeClient,
  makeMessage,
  makeMessageLabel,
  makeSession,
  makeSessionLabel,
  makeTempDir,
  PROJECT,
  T0,
} from './fixtures.js';

let temp: ReturnType<typeof makeTempDir>;
let warehouse: Warehouse;

beforeEach(async () => {
  temp = makeTempDir();
  warehouse = await openWarehouse({ path: `${temp.dir}/warehouse.duckdb`, now: () => T0 });
  await warehouse.startRun({ runId: 'run-1', project: PROJECT, job: 'sync', trigger: 'test' });
});
afterEach(async () => {
  await warehouse.close();
  temp.cleanup();
});

const makeFirstBatch = () =>
  makeBatch({
    sessions: [
      makeSession('s1'),
      makeSession('s2', { channel_type: 'telegram', duration_ms: 5_000_000_000 }),
    ],
    sessionLabels: [makeSessionLabel('s1', 1), makeSessionLabel('s1', 2)],
    sessionData: [
      { project: PROJECT, session_id: 's1', key: 'city', value: 'Paris' },
      { project: PROJECT, session_id: 's2', key: 'city', value: 'Rome' },
    ],
    sessionDataFor: ['s1', 's2'],
    messages: [
      makeMessage('q1', 's1', { status: 'SENT' }),
      makeMessage('q2', 's1', { status: 'DELIVERED' }),
      makeMessage('q3', 's2', { status: null }),
    ],
    messageLabels: [makeMessageLabel('q1', 10), makeMessageLabel('q2', 11)],
    clients: [makeClient('c1')],
    rejects: [
      {
        run_id: 'run-1',
        project: PROJECT,
        endpoint: 'sessions/filter',
        record_id: 'bad',
        raw_json: '{}',
        error: 'x',
      },
    ],
    requests: 7,
    seenAt: T0 + 2 * HOUR,
    watermark: T0 + HOUR,
  });

describe('commitWindow', () => {
  it('loads every table of a window, with times as TIMESTAMPTZ and no bigint in results', async () => {
    const summary = await warehouse.commitWindow(makeFirstBatch());
    expect(summary).toMatchObject({ sessions: 2, messages: 3, rejects: 1, newStatuses: 2 });

    const sessions = await warehouse.query('SELECT * FROM sessions ORDER BY session_id');
    expect(sessions).toHaveLength(2);
    expect(sessions[0]).toMatchObject({ session_id: 's1', start_time: T0, synced_at: T0 + 2 * HOUR });
    expect(sessions[1]).toMatchObject({ channel_type: 'telegram', duration_ms: 5_000_000_000 });
    const types = await warehouse.query(
      "SELECT typeof(start_time) AS t, strftime(start_time, '%Y-%m-%d %H:%M') AS s FROM sessions LIMIT 1",
    );
    expect(types[0]).toEqual({ t: 'TIMESTAMP WITH TIME ZONE', s: '2025-01-15 10:00' });

    const messages = await warehouse.query(
      'SELECT question_id, status, "timestamp" FROM messages ORDER BY question_id',
    );
    expect(messages).toEqual([
      { question_id: 'q1', status: 'SENT', timestamp: T0 + 1000 },
      { question_id: 'q2', status: 'DELIVERED', timestamp: T0 + 1000 },
      { question_id: 'q3', status: null, timestamp: T0 + 1000 },
    ]);
    expect(await countRows('session_labels')).toBe(2);
    expect(await countRows('message_labels')).toBe(2);
    expect(await countRows('session_data')).toBe(2);
    expect(await countRows('clients')).toBe(1);
    expect(await warehouse.countRejects('run-1')).toBe(1);
    expect(await warehouse.getWatermark(PROJECT)).toBe(T0 + HOUR);

    const [counts] = await warehouse.query('SELECT count(*) AS n, sum(duration_ms) AS total FROM sessions');
    expect(counts).toEqual({ n: 2, total: 5_000_060_000 });
    for (const row of [...sessions, ...messages, counts]) {
      for (const value of Object.values(row ?? {})) expect(typeof value).not.toBe('bigint');
    }
  });

  it('replaces rows on a second commit: new status, labels and comment, no duplicates', async () => {
    await warehouse.commitWindow(makeFirstBatch());
    await warehouse.commitWindow(
      makeBatch({
        sessions: [makeSession('s1', { question_count: 3 })],
        sessionLabels: [makeSessionLabel('s1', 3, 'escalated')],
        messages: [
          makeMessage('q1', 's1', { status: 'READ', comment: 'checked by QA' }),
          makeMessage('q2', 's1', { status: 'DELIVERED' }),
        ],
        messageLabels: [makeMessageLabel('q2', 12, null)],
        clients: [
          makeClient('c1', { is_blocked: true, block_reason: 'spam', blocked_by: 42, block_date: T0 }),
        ],
        seenAt: T0 + 3 * HOUR,
      }),
    );
    expect(await countRows('sessions')).toBe(2);
    expect(await countRows('messages')).toBe(3);
    expect(await warehouse.query("SELECT question_count FROM sessions WHERE session_id = 's1'")).toEqual([
      { question_count: 3 },
    ]);
    expect(
      await warehouse.query('SELECT question_id, status, comment FROM messages ORDER BY question_id'),
    ).toEqual([
      { question_id: 'q1', status: 'READ', comment: 'checked by QA' },
      { question_id: 'q2', status: 'DELIVERED', comment: null },
      { question_id: 'q3', status: null, comment: null },
    ]);
    expect(await warehouse.query('SELECT session_id, label_id, label_name FROM session_labels')).toEqual([
      { session_id: 's1', label_id: 3, label_name: 'escalated' },
    ]);
    // q1 had a label and is in the batch without one: its labels are gone; q2's are replaced.
    expect(await warehouse.query('SELECT question_id, label_id, group_name FROM message_labels')).toEqual([
      { question_id: 'q2', label_id: 12, group_name: null },
    ]);
    expect(
      await warehouse.query('SELECT client_id, is_blocked, blocked_by, block_date FROM clients'),
    ).toEqual([{ client_id: 'c1', is_blocked: true, blocked_by: 42, block_date: T0 }]);
  });

  it('keeps the last row of a key when a batch holds it twice', async () => {
    await warehouse.commitWindow(
      makeBatch({
        sessions: [makeSession('s1', { question_count: 1 }), makeSession('s1', { question_count: 2 })],
        messages: [makeMessage('q1', 's1', { comment: 'old' }), makeMessage('q1', 's1', { comment: 'new' })],
        sessionLabels: [makeSessionLabel('s1', 1, 'old'), makeSessionLabel('s1', 1, 'new')],
      }),
    );
    expect(await warehouse.query('SELECT question_count FROM sessions')).toEqual([{ question_count: 2 }]);
    expect(await warehouse.query('SELECT comment FROM messages')).toEqual([{ comment: 'new' }]);
    expect(await warehouse.query('SELECT label_name FROM session_labels')).toEqual([{ label_name: 'new' }]);
  });

  it('keeps the first-seen time of each status and adds new statuses', async () => {
    await warehouse.commitWindow(makeFirstBatch());
    await warehouse.commitWindow(
      makeBatch({
        messages: [
          makeMessage('q1', 's1', { status: 'SENT' }),
          makeMessage('q2', 's1', { status: 'READ' }),
          makeMessage('q3', 's2', { status: null }),
        ],
        seenAt: T0 + 5 * HOUR,
      }),
    );
    await warehouse.commitWindow(
      makeBatch({ messages: [makeMessage('q1', 's1', { status: 'DELIVERED' })], seenAt: T0 + 6 * HOUR }),
    );
    expect(
      await warehouse.query(
        'SELECT question_id, status, first_seen_at FROM message_status_history ORDER BY 1, 3',
      ),
    ).toEqual([
      { question_id: 'q1', status: 'SENT', first_seen_at: T0 + 2 * HOUR },
      { question_id: 'q1', status: 'DELIVERED', first_seen_at: T0 + 6 * HOUR },
      { question_id: 'q2', status: 'DELIVERED', first_seen_at: T0 + 2 * HOUR },
      { question_id: 'q2', status: 'READ', first_seen_at: T0 + 5 * HOUR },
    ]);
  });

  it('replaces sessionData only for the sessions of sessionDataFor', async () => {
    await warehouse.commitWindow(makeFirstBatch());
    await warehouse.commitWindow(
      makeBatch({
        sessions: [makeSession('s1'), makeSession('s2')],
        sessionData: [{ project: PROJECT, session_id: 's1', key: 'plan', value: 'gold' }],
        sessionDataFor: ['s1'],
      }),
    );
    expect(
      await warehouse.query('SELECT session_id, key, value FROM session_data ORDER BY session_id'),
    ).toEqual([
      { session_id: 's1', key: 'plan', value: 'gold' },
      { session_id: 's2', key: 'city', value: 'Rome' },
    ]);
    // Read but empty: the session's old data goes.
    await warehouse.commitWindow(makeBatch({ sessions: [makeSession('s2')], sessionDataFor: ['s2'] }));
    expect(await warehouse.query('SELECT session_id FROM session_data')).toEqual([{ session_id: 's1' }]);
  });

  it('moves the watermark only when the batch sets it, and adds to the run counters', async () => {
    expect(await warehouse.getWatermark(PROJECT)).toBeUndefined();
    await warehouse.commitWindow(makeFirstBatch());
    await warehouse.commitWindow(makeBatch({ sessions: [makeSession('s9')], requests: 3 }));
    expect(await warehouse.getWatermark(PROJECT)).toBe(T0 + HOUR);
    expect(await warehouse.getWatermark('other-project')).toBeUndefined();
    expect(await warehouse.query("SELECT value FROM etl_state WHERE key = 'watermark'")).toEqual([
      { value: '2025-01-15T11:00:00.000Z' },
    ]);
    const [run] = await warehouse.listRuns({ limit: 1 });
    expect(run).toMatchObject({
      windows: 2,
      sessions: 3,
      messages: 3,
      requests: 10,
      rejects: 1,
      status: 'running',
    });
  });

  it('leaves nothing behind when the batch fails mid-transaction', async () => {
    await warehouse.commitWindow(makeFirstBatch());
    const before = await takeSnapshot();
    // Rows, labels and statuses are written before the rejects; a missing etl_rejects fails the batch there.
    await warehouse.query('ALTER TABLE etl_rejects RENAME TO etl_rejects_away');
    const failing = makeBatch({
      sessions: [makeSession('s1', { question_count: 99 }), makeSession('s3')],
      messages: [makeMessage('q1', 's1', { status: 'READ' }), makeMessage('q4', 's3')],
      sessionLabels: [makeSessionLabel('s1', 7)],
      sessionDataFor: ['s1'],
      rejects: [
        { run_id: 'run-1', project: PROJECT, endpoint: 'e', record_id: null, raw_json: '{}', error: 'x' },
      ],
      requests: 5,
      seenAt: T0 + 9 * HOUR,
      watermark: T0 + 8 * HOUR,
    });
    const error = await warehouse.commitWindow(failing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EtlError);
    expect(error).toMatchObject({ code: 'warehouse.commit_failed', kind: 'terminal' });
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('nothing of it was written');
    await warehouse.query('ALTER TABLE etl_rejects_away RENAME TO etl_rejects');
    expect(await takeSnapshot()).toEqual(before);
    expect(await warehouse.getWatermark(PROJECT)).toBe(T0 + HOUR);

    // The warehouse is usable after the failure, and the same batch now commits.
    await warehouse.commitWindow(failing);
    expect(await warehouse.getWatermark(PROJECT)).toBe(T0 + 8 * HOUR);
    expect(await countRows('sessions')).toBe(3);
  });

  it('rejects a row with a wrong value, naming the table and column, and writes nothing', async () => {
    const error = await warehouse
      .commitWindow(
        makeBatch({
          sessions: [makeSession('s1')],
          messages: [makeMessage('q1', 's1', { timestamp: Number.NaN })],
          watermark: T0,
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'warehouse.commit_failed' });
    expect(((error as Error).cause as Error).message).toMatch(
      /messages: column timestamp expects a time in epoch milliseconds, got NaN/,
    );
    expect(await countRows('sessions')).toBe(0);
    expect(await warehouse.getWatermark(PROJECT)).toBeUndefined();
  });

  it('reports the stored statuses of the messages of given sessions', async () => {
    await warehouse.commitWindow(makeFirstBatch());
    const statuses = await warehouse.latestStatuses(PROJECT, ['s1', 's2', 'unknown']);
    expect([...statuses.entries()].sort()).toEqual([
      ['q1', 'SENT'],
      ['q2', 'DELIVERED'],
      ['q3', null],
    ]);
    expect((await warehouse.latestStatuses(PROJECT, ['s2'])).size).toBe(1);
    expect((await warehouse.latestStatuses('other', ['s1'])).size).toBe(0);
    expect((await warehouse.latestStatuses(PROJECT, [])).size).toBe(0);
    // within a time range (inclusive): the fixtures' messages are at T0 + 1 s
    const at = T0 + 1000;
    expect((await warehouse.latestStatuses(PROJECT, ['s1', 's2'], { from: at, to: at })).size).toBe(3);
    expect((await warehouse.latestStatuses(PROJECT, ['s1'], { from: at + 1, to: at + HOUR })).size).toBe(0);
    expect((await warehouse.latestStatuses(PROJECT, ['s1'], { from: T0 - HOUR, to: at - 1 })).size).toBe(0);
  });

  it('runs overlapping calls one at a time', async () => {
    const batches = Array.from({ length: 5 }, (_, i) =>
      makeBatch({
        sessions: [makeSession(`s${i}`)],
        messages: [makeMessage(`q${i}`, `s${i}`)],
        watermark: T0 + i,
      }),
    );
    await Promise.all(batches.map((b) => warehouse.commitWindow(b)));
    expect(await countRows('sessions')).toBe(5);
    expect(await warehouse.getWatermark(PROJECT)).toBe(T0 + 4);
  });
});

async function countRows(table: string): Promise<number> {
  const [row] = await warehouse.query(`SELECT count(*) AS n FROM ${table}`);
  return Number(row?.['n']);
}

async function takeSnapshot(): Promise<Record<string, unknown>> {
  const tables = [
    'sessions',
    'messages',
    'session_labels',
    'message_labels',
    'session_data',
    'clients',
    'message_status_history',
    'etl_state',
    'etl_runs',
    'etl_rejects',
  ];
  const result: Record<string, unknown> = {};
  for (const table of tables) result[table] = await warehouse.query(`SELECT * FROM ${table} ORDER BY ALL`);
  return result;
}
