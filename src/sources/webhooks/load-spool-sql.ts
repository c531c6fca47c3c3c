// Spooled webhook requests as warehouse statements, for one transaction (Warehouse.execute): the rows of a
// batch (Chat API objects, Prompter answers and options, rejected bodies) and the spool offset they reach.
// A question_id already stored, or met earlier in the batch, is skipped (the first delivery is kept), so the
// platform's resends, and a batch loaded again after a crash between its commit and the spool's removal, are
// stored once.

import { parseChatApiTime } from '../../platform/chatapi/parse-chatapi-time.js';
import type { ChatApiChannel } from '../../settings/chatapi-channels.js';
import type { SqlStatement } from '../../warehouse/warehouse.js';
import type { SpoolRecord } from './spool.js';
import type { ChatApiPayload, PrompterPayload } from './webhook-payloads.js';

export const WEBHOOKS_STATE_PROJECT = 'webhooks';
export const spoolStateKey = (spoolName: string): string => `spool:${spoolName}`;

const json = (value: unknown): string => JSON.stringify(value);
const typeOf = (columns: Record<string, string>): string => JSON.stringify([columns]);
const rowsOf = (columns: Record<string, string>) =>
  `SELECT unnest(from_json($rows, '${typeOf(columns)}'), recursive := true)`;

const EVENT_COLUMNS = {
  question_id: 'VARCHAR',
  channel: 'VARCHAR',
  client_id: 'VARCHAR',
  time_ms: 'BIGINT',
  received_ms: 'BIGINT',
  nlp_class: 'VARCHAR',
  confidence: 'DOUBLE',
  answer: 'VARCHAR',
  block_form: 'BOOLEAN',
  data: 'JSON',
};
const INSERT_EVENTS = `
INSERT INTO chatapi_webhook_events
SELECT DISTINCT ON (b.question_id) b.question_id, b.channel, b.client_id, make_timestamptz(b.time_ms * 1000),
       make_timestamptz(b.received_ms * 1000), b.nlp_class, b.confidence, b.answer, b.block_form, b.data
FROM (${rowsOf(EVENT_COLUMNS)}) b
WHERE NOT EXISTS (SELECT 1 FROM chatapi_webhook_events e WHERE e.question_id = b.question_id)`;

const ANSWER_COLUMNS = {
  question_id: 'VARCHAR',
  chat_id: 'VARCHAR',
  client_id: 'VARCHAR',
  options: 'INTEGER',
  received_ms: 'BIGINT',
};
const OPTION_COLUMNS = {
  question_id: 'VARCHAR',
  chat_id: 'VARCHAR',
  client_id: 'VARCHAR',
  rank: 'INTEGER',
  intent_id: 'VARCHAR',
  intent_name: 'VARCHAR',
  intent_path: 'VARCHAR',
  confidence: 'DOUBLE',
  text: 'VARCHAR',
  markup: 'VARCHAR',
  messages: 'JSON',
  received_ms: 'BIGINT',
};
// options first: they are skipped for a question whose answer row exists already
const INSERT_OPTIONS = `
INSERT INTO prompter_answer_options
SELECT DISTINCT ON (b.question_id, b.rank) b.question_id, b.chat_id, b.client_id, b.rank, b.intent_id,
       b.intent_name, b.intent_path, b.confidence, b.text, b.markup, b.messages, make_timestamptz(b.received_ms * 1000)
FROM (${rowsOf(OPTION_COLUMNS)}) b
WHERE NOT EXISTS (SELECT 1 FROM prompter_answers a WHERE a.question_id = b.question_id)`;
const INSERT_ANSWERS = `
INSERT INTO prompter_answers
SELECT DISTINCT ON (b.question_id) b.question_id, b.chat_id, b.client_id, b.options, make_timestamptz(b.received_ms * 1000)
FROM (${rowsOf(ANSWER_COLUMNS)}) b
WHERE NOT EXISTS (SELECT 1 FROM prompter_answers a WHERE a.question_id = b.question_id)`;

const REJECT_COLUMNS = { endpoint: 'VARCHAR', raw_json: 'VARCHAR', error: 'VARCHAR', received_ms: 'BIGINT' };
const INSERT_REJECTS = `
INSERT INTO etl_rejects (run_id, project, endpoint, record_id, raw_json, error, rejected_at)
SELECT $run_id, '${WEBHOOKS_STATE_PROJECT}', b.endpoint, NULL, b.raw_json, b.error, make_timestamptz(b.received_ms * 1000)
FROM (${rowsOf(REJECT_COLUMNS)}) b
WHERE NOT EXISTS (
  SELECT 1 FROM etl_rejects r
  WHERE r.project = '${WEBHOOKS_STATE_PROJECT}' AND r.endpoint = b.endpoint
    AND r.rejected_at = make_timestamptz(b.received_ms * 1000) AND r.error = b.error
    AND r.raw_json IS NOT DISTINCT FROM b.raw_json)`;

export interface LoadContext {
  channels: readonly ChatApiChannel[];
  /** REPORTER_CHATAPI_TIMEZONE: the zone of the payloads' timestamps. */
  timeZone: string;
  runId: string;
  now: number;
}

/** The statements storing `records` of spool `spoolName` up to byte `offset` (undefined: the rows alone). */
export function loadSpoolStatements(
  spoolName: string,
  records: readonly SpoolRecord[],
  offset: number | undefined,
  ctx: LoadContext,
): SqlStatement[] {
  const channelOf = new Map(ctx.channels.map((c) => [c.token, c.name]));
  const events: Record<string, unknown>[] = [];
  const answers: Record<string, unknown>[] = [];
  const options: Record<string, unknown>[] = [];
  const rejects: Record<string, unknown>[] = [];
  // a resend in the same batch as its first delivery is left out here: the first one is stored
  const seenEvents = new Set<string>();
  const seenAnswers = new Set<string>();
  for (const record of records) {
    if (record.route === 'chatapi') {
      for (const [index, object] of (record.body as ChatApiPayload).entries()) {
        // the receiver spools the channel and drops the token; a spool of an older receiver has the token
        const { token, data } = object;
        const channel =
          record.channels?.[index] ?? (token === undefined ? null : (channelOf.get(token) ?? null));
        if (seenEvents.has(object.questionId)) continue;
        seenEvents.add(object.questionId);
        events.push({
          question_id: object.questionId,
          channel,
          client_id: object.clientId,
          time_ms: parseChatApiTime(object.timestamp, ctx.timeZone) ?? null,
          received_ms: record.receivedAt,
          nlp_class: data?.nlpClass ?? null,
          confidence: data?.confidence ?? null,
          answer: data?.answer ?? null,
          block_form: object.blockForm ?? null,
          data: data ?? null,
        });
      }
    } else if (record.route === 'prompter') {
      const p = record.body as PrompterPayload;
      if (seenAnswers.has(p.questionId)) continue;
      seenAnswers.add(p.questionId);
      const common = { question_id: p.questionId, chat_id: p.chatId, client_id: p.clientInfo.id };
      answers.push({ ...common, options: p.answerOptions.length, received_ms: record.receivedAt });
      for (const [index, option] of p.answerOptions.entries()) {
        const texts = option.messages.map((m) => m.text).filter((t): t is string => typeof t === 'string');
        options.push({
          ...common,
          rank: index + 1,
          intent_id:
            option.intent.id === undefined || option.intent.id === null ? null : String(option.intent.id),
          intent_name: option.intent.name ?? null,
          intent_path: option.intent.path ?? null,
          confidence: option.intent.confidence ?? null,
          text: texts.length > 0 ? texts.join('\n') : null,
          markup: option.messages[0]?.markup ?? null,
          messages: option.messages,
          received_ms: record.receivedAt,
        });
      }
    } else {
      rejects.push({
        endpoint: record.endpoint ?? 'webhooks',
        raw_json: typeof record.body === 'string' ? record.body : json(record.body),
        error: record.reason ?? 'rejected',
        received_ms: record.receivedAt,
      });
    }
  }
  const statements: SqlStatement[] = [];
  if (events.length > 0) statements.push({ sql: INSERT_EVENTS, params: { rows: json(events) } });
  if (options.length > 0) statements.push({ sql: INSERT_OPTIONS, params: { rows: json(options) } });
  if (answers.length > 0) statements.push({ sql: INSERT_ANSWERS, params: { rows: json(answers) } });
  if (rejects.length > 0)
    statements.push({ sql: INSERT_REJECTS, params: { rows: json(rejects), run_id: ctx.runId } });
  if (offset === undefined) return statements;
  const state = { project: WEBHOOKS_STATE_PROJECT, key: spoolStateKey(spoolName) };
  statements.push(
    { sql: 'DELETE FROM etl_state WHERE project = $project AND key = $key', params: state },
    {
      sql: 'INSERT INTO etl_state (project, key, value, updated_at) VALUES ($project, $key, $value, $updated_at)',
      params: { ...state, value: String(offset), updated_at: new Date(ctx.now) },
    },
  );
  return statements;
}

/** Forgets a spool that is loaded and removed. */
export function forgetSpoolStatements(spoolName: string): SqlStatement[] {
  return [
    {
      sql: 'DELETE FROM etl_state WHERE project = $project AND key = $key',
      params: { project: WEBHOOKS_STATE_PROJECT, key: spoolStateKey(spoolName) },
    },
  ];
}

export const SELECT_SPOOL_OFFSET = 'SELECT value FROM etl_state WHERE project = $project AND key = $key';
