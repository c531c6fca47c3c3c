// Validated API records → warehouse rows. Each raw record is parsed alone: a record that fails
// validation becomes a RejectRow with the reason, never an exception for the whole window.
import type { z } from 'zod';
import { normaliseChannel } from '../reporter/normalise-channel.js';
import {
  type ClientExtendedInfo,
  clientExtendedInfo,
  describeZodError,
  type ExtendedMessage,
  extendedMessage,
  type Message,
  type SessionInfo,
  sessionInfo,
} from '../reporter/schemas.js';
import type {
  ClientRow,
  MessageLabelRow,
  MessageRow,
  RejectRow,
  SessionDataRow,
  SessionLabelRow,
  SessionRow,
} from '../warehouse/rows.js';

/** Channels whose messages carry a delivery status. */
export const STATUS_CHANNELS = new Set(['telegram', 'viber', 'vk']);

export interface Parsed<T> {
  ok: T[];
  rejects: RejectRow[];
}

function rawId(record: unknown, field: string): string | null {
  const value =
    typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

export function parseAll<S extends z.ZodType>(
  records: unknown[],
  schema: S,
  context: { runId: string; project: string; endpoint: string; idField: string },
): Parsed<z.infer<S>> {
  const ok: z.infer<S>[] = [];
  const rejects: RejectRow[] = [];
  for (const record of records) {
    const parsed = schema.safeParse(record);
    if (parsed.success) ok.push(parsed.data);
    else {
      rejects.push({
        run_id: context.runId,
        project: context.project,
        endpoint: context.endpoint,
        record_id: rawId(record, context.idField),
        raw_json: JSON.stringify(record),
        error: describeZodError(parsed.error),
      });
    }
  }
  return { ok, rejects };
}

export const parseSessions = (records: unknown[], ctx: { runId: string; project: string }) =>
  parseAll(records, sessionInfo, { ...ctx, endpoint: 'sessions/filter', idField: 'sessionId' });
export const parseExtendedMessages = (records: unknown[], ctx: { runId: string; project: string }) =>
  parseAll(records, extendedMessage, { ...ctx, endpoint: 'messages/filter', idField: 'questionId' });
export const parseClients = (records: unknown[], ctx: { runId: string; project: string }) =>
  parseAll(records, clientExtendedInfo, { ...ctx, endpoint: 'clients/filter', idField: 'id' });

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
