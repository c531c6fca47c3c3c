// The rollups a window commit keeps (src/warehouse/commit-rollups-sql.ts) through the cases the emulator rarely
// makes: a client's earlier session committed after its later ones, in another channel; two sessions of a
// client at one instant; clients without an id in two projects; a join date before the first session; a
// transfer that arrives in a later window; a message re-committed with another status, class and confidence;
// labels staged for a message and a session that are not in the batch; sessionData replaced, and kept while
// its session changes (its data not read). After each commit the rollups equal a rebuild from the raw rows,
// and every figure equals the raw computation.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { WindowBatch } from '../../src/warehouse/rows.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import {
  expectRollupsEqualRaw,
  expectRollupsEqualRebuild,
  type ReportCase,
} from '../analysis/stats/rollup-reference.js';
import {
  HOUR,
  makeBatch,
  makeClient,
  makeMessage,
  makeMessageLabel,
  makeSession,
  makeSessionLabel,
  makeTempDir,
  T0,
} from './fixtures.js';

let temp: ReturnType<typeof makeTempDir>;
let warehouse: Warehouse;

beforeEach(async () => {
  temp = makeTempDir();
  warehouse = await openWarehouse({ path: `${temp.dir}/warehouse.duckdb`, now: () => T0 });
  await warehouse.startRun({ runId: 'run-1', project: 'shop-bot', job: 'sync', trigger: 'test' });
  await warehouse.startRun({ runId: 'run-2', project: 'other-bot', job: 'sync', trigger: 'test' });
});
afterEach(async () => {
  await warehouse.close();
  temp.cleanup();
});

const MIN = 60_000;
const CASES: ReportCase[] = [
  { timeZone: 'UTC', period: 'hour' },
  { timeZone: 'UTC', period: 'day', from: T0 + 7 * MIN + 1, to: T0 + 5 * HOUR - 1 },
  { timeZone: 'Asia/Kolkata', period: 'hour', from: T0 - HOUR, to: T0 + 6 * HOUR },
  { timeZone: 'Asia/Kathmandu', period: 'hour', from: T0 + 31 * MIN, to: T0 + 4 * HOUR + 44 * MIN },
  { timeZone: 'Europe/Moscow', period: 'day', channels: ['telegram'] },
  { timeZone: 'UTC', period: 'hour', channels: ['telegram', 'vk'], from: T0, to: T0 + 6 * HOUR },
  { timeZone: 'UTC', period: 'hour', from: T0 + HOUR + 1, to: T0 + 3 * HOUR },
  { timeZone: 'UTC', period: 'day', projects: ['other-bot'] },
];

async function commitAndCompare(batch: WindowBatch, cases = CASES): Promise<void> {
  await warehouse.commitWindow(batch);
  await expectRollupsEqualRaw(warehouse, cases);
  await expectRollupsEqualRebuild(warehouse);
}

const client = (session: string, client_id: string | undefined, at: number, channel_type = 'telegram') =>
  makeSession(session, { client_id, start_time: at, channel_type });

describe('the rollups kept by the window commits', () => {
  it('equal a rebuild and give the raw figures, commit after commit', async () => {
    // a session without a client id in another project
    await commitAndCompare(
      makeBatch({
        project: 'other-bot',
        runId: 'run-2',
        sessions: [
          makeSession('s5', { project: 'other-bot', client_id: undefined, start_time: T0 + 2 * HOUR }),
        ],
      }),
    );
    // the later sessions of c1 first (telegram), a transfer-less message, clients without an id
    await commitAndCompare(
      makeBatch({
        sessions: [
          client('s3', 'c1', T0 + 3 * HOUR),
          client('s4', 'c1', T0 + 3 * HOUR),
          client('s5', undefined, T0 + 2 * HOUR, 'vk'),
          client('s6', 'c2', T0 + 4 * HOUR + 50 * MIN, 'vk'),
        ],
        messages: [
          makeMessage('m1', 's3', {
            timestamp: T0 + 3 * HOUR + MIN,
            channel_type: 'telegram',
            confidence: 0.1,
          }),
          makeMessage('m2', 's5', { timestamp: T0 + 2 * HOUR + 7, channel_type: 'vk', status: 'READ' }),
        ],
        sessionLabels: [makeSessionLabel('s3', 1)],
        messageLabels: [makeMessageLabel('m1', 7)],
        sessionData: [{ project: 'shop-bot', session_id: 's3', key: 'exp_checkout', value: 'A' }],
        sessionDataFor: ['s3'],
      }),
    );
    // an earlier session of c1 in vk, a join date of c2 before everything, the transfer of s3 an hour later
    await commitAndCompare(
      makeBatch({
        sessions: [client('s1', 'c1', T0 + 20 * MIN, 'vk'), client('s2', 'c1', T0 + HOUR + 30 * MIN)],
        clients: [makeClient('c2', { join_date: T0 - 48 * HOUR })],
        messages: [
          makeMessage('m3', 's3', {
            timestamp: T0 + 4 * HOUR + 3 * MIN,
            channel_type: 'telegram',
            is_transfer: true,
            confidence: 0.30000000000000004,
          }),
          makeMessage('m4', 's1', { timestamp: T0 + 21 * MIN, channel_type: 'vk', nlp_class: '/CatchAll' }),
        ],
      }),
    );
    // m1 again with another status, class and confidence; labels of a message and a session not staged
    await commitAndCompare(
      makeBatch({
        messages: [
          makeMessage('m1', 's3', {
            timestamp: T0 + 3 * HOUR + MIN,
            channel_type: 'telegram',
            status: 'DELIVERED',
            nlp_class: '/order',
            confidence: 0.7,
          }),
        ],
        messageLabels: [makeMessageLabel('m2', 8)],
        sessionLabels: [makeSessionLabel('s6', 2)],
      }),
    );
    // s3 again in another channel with more messages and its sessionData replaced
    await commitAndCompare(
      makeBatch({
        sessions: [makeSession('s3', { client_id: 'c1', start_time: T0 + 3 * HOUR, question_count: 9 })],
        sessionData: [{ project: 'shop-bot', session_id: 's3', key: 'exp_checkout', value: 'B' }],
        sessionDataFor: ['s3'],
      }),
    );
    // s3 again, its sessionData not read: its stored pair follows its new channel and messages
    await commitAndCompare(
      makeBatch({
        sessions: [
          makeSession('s3', {
            client_id: 'c1',
            start_time: T0 + 3 * HOUR,
            channel_type: 'vk',
            question_count: 4,
          }),
        ],
      }),
    );
    const [pair] = await warehouse.query(
      `SELECT channel_type, message_count FROM stat_session_data WHERE session_id = 's3'`,
    );
    expect(pair).toEqual({ channel_type: 'vk', message_count: 4 });
    const [row] = await warehouse.query(
      `SELECT count(*) FILTER (WHERE client_id IS NOT NULL AND prev_start_any IS NOT NULL) AS pointed, count(*) AS sessions FROM stat_sessions`,
    );
    expect(row).toEqual({ pointed: 3, sessions: 7 });
  }, 60_000);

  it('drop the labels and sessionData stored before their session when it arrives with new ones', async () => {
    // s7's labels and sessionData come first, without s7: their rollup rows have no start yet
    const shopBot = CASES.filter((c) => c.projects === undefined);
    await commitAndCompare(
      makeBatch({
        sessionLabels: [makeSessionLabel('s7', 1), makeSessionLabel('s7', 2)],
        sessionData: [{ project: 'shop-bot', session_id: 's7', key: 'exp_checkout', value: 'A' }],
        sessionDataFor: ['s7'],
      }),
      shopBot,
    );
    const before = await warehouse.query(
      `SELECT count(*) AS n FROM stat_session_labels WHERE session_id = 's7' AND start_time IS NULL`,
    );
    expect(before).toEqual([{ n: 2 }]);
    // then s7 itself with one label and another pair (a window holding only its own sessions' rows)
    await commitAndCompare(
      makeBatch({
        sessions: [client('s7', 'c3', T0 + 2 * HOUR)],
        sessionLabels: [makeSessionLabel('s7', 3)],
        sessionData: [{ project: 'shop-bot', session_id: 's7', key: 'exp_checkout', value: 'B' }],
        sessionDataFor: ['s7'],
      }),
      shopBot,
    );
    const labels = await warehouse.query(
      `SELECT label_id, start_time IS NULL AS no_start FROM stat_session_labels WHERE session_id = 's7'`,
    );
    expect(labels).toEqual([{ label_id: 3, no_start: false }]);
    const pairs = await warehouse.query(`SELECT value FROM stat_session_data WHERE session_id = 's7'`);
    expect(pairs).toEqual([{ value: 'B' }]);
  }, 60_000);
});
