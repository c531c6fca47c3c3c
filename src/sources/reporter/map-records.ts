// Validated API records → warehouse rows. Each raw record is parsed alone: a record that fails
// validation becomes a RejectRow with the reason, never an exception for the whole window. The hot kinds
// go through their fast path (src/platform/reporter/fast-parse.ts) first; zod only sees what it declines.
import type { z } from 'zod';
import {
  fastClientExtendedInfo,
  fastExtendedMessage,
  fastSessionInfo,
} from '../../platform/reporter/fast-parse.js';
import { normaliseChannel } from '../../platform/reporter/normalise-channel.js';
import {
  type ClientExtendedInfo,
  clientExtendedInfo,
  describeZodError,
  type ExtendedMessage,
  extendedMessage,
  type Message,
  type SessionInfo,
  sessionInfo,
} from '../../platform/reporter/schemas.js';
import type {
  ClientRow,
  MessageLabelRow,
  MessageRow,
  RejectRow,
  SessionDataRow,
  SessionLabelRow,
  SessionRow,
} from '../../warehouse/rows.js';

/** Channels whose messages carry a delivery status. */
export const STATUS_CHANNELS = new Set(['telegram', 'viber', 'vk']);

export interface Parsed<T> {
  ok: T[];
  rejects: RejectRow[];
}

/** A record validated (and mapped), or quarantined. */
export type Mapped<T> = { ok: T; reject?: undefined } | { ok?: undefined; reject: RejectRow };

export interface ParseContext {
  runId: string;
  project: string;
  endpoint: string;
  idField: string;
}

/**
 * A fast path of src/platform/reporter/fast-parse.ts: exactly what its schema's parse returns, or undefined when the
 * record is not plainly valid (zod then decides and names the reason).
 */
export type FastParse<T> = (record: unknown) => T | undefined;

/** A kind of record a paged read maps: its schema, fast path, endpoint and id field. */
export interface RecordKind<S extends z.ZodType> {
  schema: S;
  fast: FastParse<z.infer<S>>;
  endpoint: string;
  idField: string;
}

export const SESSION_RECORDS: RecordKind<typeof sessionInfo> = {
  schema: sessionInfo,
  fast: fastSessionInfo,
  endpoint: 'sessions/filter',
  idField: 'sessionId',
};
export const EXTENDED_MESSAGE_RECORDS: RecordKind<typeof extendedMessage> = {
  schema: extendedMessage,
  fast: fastExtendedMessage,
  endpoint: 'messages/filter',
  idField: 'questionId',
};
export const CLIENT_RECORDS: RecordKind<typeof clientExtendedInfo> = {
  schema: clientExtendedInfo,
  fast: fastClientExtendedInfo,
  endpoint: 'clients/filter',
  idField: 'id',
};

function rawId(record: unknown, field: string): string | null {
  const value =
    typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

function rejectOf(record: unknown, context: ParseContext, error: z.ZodError): RejectRow {
  return {
    run_id: context.runId,
    project: context.project,
    endpoint: context.endpoint,
    record_id: rawId(record, context.idField),
    raw_json: JSON.stringify(record),
    error: describeZodError(error),
  };
}

/** Validates each record alone: `fast` first; when it declines, zod decides and names the reject's reason. */
export function parseAll<S extends z.ZodType>(
  records: unknown[],
  schema: S,
  context: ParseContext,
  fast?: FastParse<z.infer<S>>,
): Parsed<z.infer<S>> {
  const ok: z.infer<S>[] = [];
  const rejects: RejectRow[] = [];
  for (const record of records) {
    const value = fast?.(record);
    if (value !== undefined) {
      ok.push(value);
      continue;
    }
    const parsed = schema.safeParse(record);
    if (parsed.success) ok.push(parsed.data);
    else rejects.push(rejectOf(record, context, parsed.error));
  }
  return { ok, rejects };
}

/**
 * Validates one record of `kind` and maps it with `map`, right as its page arrives: the fast path first;
 * when it declines, zod decides and names the reject's reason.
 */
export function mapRecord<S extends z.ZodType, T>(
  kind: RecordKind<S>,
  ctx: { runId: string; project: string },
  map: (record: z.infer<S>) => T,
): (record: unknown) => Mapped<T> {
  const context: ParseContext = { ...ctx, endpoint: kind.endpoint, idField: kind.idField };
  return (record) => {
    const value = kind.fast(record);
    if (value !== undefined) return { ok: map(value) };
    const parsed = kind.schema.safeParse(record);
    return parsed.success ? { ok: map(parsed.data) } : { reject: rejectOf(record, context, parsed.error) };
  };
}

const text = (v: string | null | undefined): string | null => (v === undefined || v === null ? null : v);

export function toSessionRows(project: string, s: SessionInfo, durationUnit: 'ms' | 's') {
  const row: SessionRow = {
    project,
    session_id: s.sessionId,
    bot_id: s.botId,
    channel_type: normaliseChannel(s.channelType),
    client_id: s.client.id,
    client_first_name: text(s.client.firstName),
    client_last_name: text(s.client.lastName),
    client_username: text(s.client.username),
    start_time: s.startTime,
    duration_ms:
      s.duration === undefined || s.duration === null
        ? null
        : durationUnit === 's'
          ? Math.round(s.duration * 1000)
          : s.duration,
    question_count: s.questionCount ?? null,
    first_question: text(s.firstQuestion),
    last_question: text(s.lastQuestion),
    is_livechat: s.isLivechat,
    session_result: text(s.sessionResult),
    call_task_id: s.callTaskId ?? null,
    is_call_incoming: s.isCallIncoming ?? null,
  };
  const labels: SessionLabelRow[] = (s.labels ?? []).map((l) => ({
    project,
    session_id: s.sessionId,
    label_id: l.id,
    label_name: l.name,
  }));
  const data: SessionDataRow[] = Object.entries(s.sessionData ?? {}).map(([key, value]) => ({
    project,
    session_id: s.sessionId,
    key,
    value,
  }));
  return { row, labels, data, hasData: s.sessionData !== undefined && s.sessionData !== null };
}

export function toMessageRows(
  project: string,
  m: ExtendedMessage | Message,
  sessionId: string,
  status: string | null,
) {
  const row: MessageRow = {
    project,
    question_id: m.questionId,
    session_id: sessionId,
    // only the ExtendedMessage of messages/filter names the channel
    channel_type: 'channelType' in m ? normaliseChannel(m.channelType) : null,
    timestamp: m.timestamp,
    question: text(m.question),
    text_answer: text(m.textAnswer),
    event: text(m.event),
    nlp_class: text(m.nlpInfo?.nlpClass),
    nlp_state: text(m.nlpInfo?.nlpState),
    confidence: m.nlpInfo?.confidence ?? null,
    status,
    is_livechat: m.isLivechat,
    comment: text(m.comment),
    processing_time: m.processingTime ?? null,
    exception: text(m.exception),
    operator_id: m.operatorInfo?.id ?? null,
    is_transfer: (m.responseData?.replies ?? []).some((r) => r.type === 'switch'),
  };
  const labels: MessageLabelRow[] = (m.labels ?? []).map((l) => ({
    project,
    question_id: m.questionId,
    label_id: l.id,
    label_name: l.name,
    group_name: l.group?.name ?? null,
  }));
  return { row, labels };
}

export function toClientRow(project: string, c: ClientExtendedInfo): ClientRow {
  return {
    project,
    client_id: c.id,
    channel_type: c.channelType ? normaliseChannel(c.channelType) : null,
    bot_id: text(c.botId),
    first_name: text(c.firstName),
    last_name: text(c.lastName),
    username: text(c.username),
    join_date: c.joinDate ?? null,
    last_visit_date: c.lastVisitDate ?? null,
    last_session_id: text(c.lastSessionId),
    is_blocked: c.isBlocked,
    block_reason: text(c.blockReason),
    blocked_by: c.blockedBy ?? null,
    block_date: c.blockDate ?? null,
  };
}
