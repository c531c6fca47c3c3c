// The native-floor prototype's SQL (bench/native-ingest-sql.ts) on a small in-memory DuckDB: a page's records
// mapped as src/sources/reporter/map-records.ts maps them (the channel normalised, isLivechat defaulted, a `switch` reply
// a transfer, labels with their message's time), records failing the checks counted and left out, both modes
// (parsed once into a stage, or parsed per statement) alike; and the comparison's SQL.
import { DuckDBInstance, VARCHAR } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createStageSql,
  DATE_TIME_RE,
  type PageKind,
  pageSql,
  stagePageSql,
} from '../../bench/native-ingest-sql.js';
import { unmatchedRowsSql } from '../../bench/steps/native-floor.js';
import { fastExtendedMessage } from '../../src/platform/reporter/fast-parse.js';
import { toMessageRows } from '../../src/sources/reporter/map-records.js';

const message = (over: Record<string, unknown>) => ({
  sessionId: 's1',
  projectShortName: 'p',
  channelType: 'CHAT_WIDGET',
  botId: 'b',
  client: { id: 42 },
  sessionStartTime: '2026-11-01T10:00:00.000Z',
  timestamp: '2026-11-01T10:00:05.250Z',
  questionId: 'q1',
  question: 'hi',
  nlpInfo: { nlpClass: '/A', nlpState: '/A/B', confidence: 0.5 },
  responseData: { replies: [{ type: 'text' }, { type: 'switch' }] },
  processingTime: 12,
  labels: [{ id: 7, name: 'L', group: { name: 'G' } }],
  ...over,
});

const MESSAGES_PAGE = {
  paging: { totalCount: 3 },
  messages: [
    message({}),
    message({ questionId: 'q2', isLivechat: true, responseData: null, labels: [], operatorInfo: { id: 5 } }),
    // fails: no valid timestamp
    message({ questionId: 'q3', timestamp: '2026-11-01 10:00' }),
  ],
};

let db: DuckDBInstance;
beforeAll(async () => {
  db = await DuckDBInstance.create(':memory:', { threads: '1' });
});
afterAll(() => db.closeSync());

async function ingest(kind: PageKind, page: unknown, mode: 'staged' | 'reparse'): Promise<number> {
  const c = await db.connect();
  await c.run('DROP TABLE IF EXISTS messages; DROP TABLE IF EXISTS message_labels;');
  await c.run(
    'CREATE TABLE messages (project VARCHAR, question_id VARCHAR, session_id VARCHAR, "timestamp" TIMESTAMPTZ, ' +
      'question VARCHAR, text_answer VARCHAR, event VARCHAR, nlp_class VARCHAR, nlp_state VARCHAR, confidence DOUBLE, ' +
      'status VARCHAR, is_livechat BOOLEAN, comment VARCHAR, processing_time INTEGER, exception VARCHAR, ' +
      'operator_id VARCHAR, is_transfer BOOLEAN, synced_at TIMESTAMPTZ, channel_type VARCHAR)',
  );
  await c.run(
    'CREATE TABLE message_labels (project VARCHAR, question_id VARCHAR, label_id BIGINT, label_name VARCHAR, ' +
      'group_name VARCHAR, "timestamp" TIMESTAMPTZ, channel_type VARCHAR)',
  );
  await c.run(`DROP TABLE IF EXISTS page_${kind}`);
  await c.run(createStageSql(kind));
  const params = { body: JSON.stringify(page), project: 'p', synced_at: '2026-11-02T00:00:00Z' };
  const run = async (sql: string) => {
    const names = [...sql.matchAll(/\$(\w+)/g)].map((m) => m[1]!);
    const bound = Object.fromEntries(names.map((n) => [n, params[n as keyof typeof params]]));
    const types = Object.fromEntries(names.map((n) => [n, VARCHAR]));
    return c.runAndReadAll(sql.replaceAll('decode($body)', 'CAST($body AS VARCHAR)'), bound, types);
  };
  const sql = pageSql(kind, mode);
  if (mode === 'staged') for (const s of stagePageSql(kind)) await run(s);
  for (const s of sql.inserts) await run(s);
  const failed = Number((await run(sql.failures)).getRows()[0]?.[0]);
  c.closeSync();
  return failed;
}

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  const c = await db.connect();
  const result = (await c.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  c.closeSync();
  return result;
}

describe('native ingest SQL', () => {
  for (const mode of ['staged', 'reparse'] as const)
    it(`maps a messages page as map-records.ts does and counts the failing record (${mode})`, async () => {
      expect(await ingest('messages', MESSAGES_PAGE, mode)).toBe(1);
      const stored = await rows(
        'SELECT question_id, session_id, channel_type, epoch_ms("timestamp") AS ms, question, nlp_class, ' +
          'nlp_state, confidence, is_livechat, processing_time, operator_id, is_transfer, status ' +
          'FROM messages ORDER BY question_id',
      );
      const expected = MESSAGES_PAGE.messages.slice(0, 2).map((m) => {
        const { row } = toMessageRows('p', fastExtendedMessage(m)!, m.sessionId, null);
        return {
          question_id: row.question_id,
          session_id: row.session_id,
          channel_type: row.channel_type,
          ms: String(row.timestamp),
          question: row.question,
          nlp_class: row.nlp_class,
          nlp_state: row.nlp_state,
          confidence: row.confidence,
          is_livechat: row.is_livechat,
          processing_time: row.processing_time,
          operator_id: row.operator_id,
          is_transfer: row.is_transfer,
          status: row.status,
        };
      });
      expect(stored).toEqual(expected);
      expect(
        await rows('SELECT question_id, label_id, label_name, group_name, channel_type FROM message_labels'),
      ).toEqual([
        { question_id: 'q1', label_id: '7', label_name: 'L', group_name: 'G', channel_type: 'chatwidget' },
      ]);
    });

  it('takes the date-times the sync takes', () => {
    const re = new RegExp(DATE_TIME_RE);
    expect(re.test('2026-11-01T10:00:05.250Z')).toBe(true);
    expect(re.test('2026-11-01T10:00+03:00')).toBe(true);
    expect(re.test('2026-11-01 10:00')).toBe(false);
  });

  it('compares whole rows as a multiset difference', () => {
    expect(unmatchedRowsSql('clients', ['project', 'client_id'], 'n', 's')).toBe(
      'SELECT count(*) FROM (SELECT "project", "client_id" FROM n.clients EXCEPT ALL SELECT "project", "client_id" FROM s.clients)',
    );
  });
});
