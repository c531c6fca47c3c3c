// Builders of warehouse rows and batches for the warehouse tests: small, explicit, deterministic.
// Every builder takes overrides, so a test states only the fields it is about.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  ClientRow,
  MessageLabelRow,
  MessageRow,
  SessionLabelRow,
  SessionRow,
  WindowBatch,
} from '../../src/warehouse/rows.js';

export const PROJECT = 'shop-bot';
export const T0 = Date.UTC(2025, 0, 15, 10, 0, 0);
export const HOUR = 3_600_000;

/** A fresh temp directory and its cleanup. */
export function makeTempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-warehouse-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function makeSession(id: string, overrides: Partial<SessionRow> = {}): SessionRow {
  return {
    project: PROJECT,
    session_id: id,
    bot_id: 'bot-1',
    channel_type: 'chatwidget',
    client_id: `client-${id}`,
    client_first_name: 'Ann',
    client_last_name: null,
    client_username: null,
    start_time: T0,
    duration_ms: 60_000,
    question_count: 2,
    first_question: 'hello',
    last_question: 'bye',
    is_livechat: false,
    session_result: null,
    call_task_id: null,
    is_call_incoming: null,
    ...overrides,
  };
}

export function makeMessage(id: string, sessionId: string, overrides: Partial<MessageRow> = {}): MessageRow {
  return {
    project: PROJECT,
    question_id: id,
    session_id: sessionId,
    channel_type: 'chatwidget',
    timestamp: T0 + 1000,
    question: 'hello',
    text_answer: 'hi!',
    event: null,
    nlp_class: '/greeting',
    nlp_state: '/start',
    confidence: 0.9,
    status: 'SENT',
    is_livechat: false,
    comment: null,
    processing_time: 120,
    exception: null,
    operator_id: null,
    is_transfer: false,
    ...overrides,
  };
}

export function makeSessionLabel(
  sessionId: string,
  labelId: number,
  name = `label ${labelId}`,
): SessionLabelRow {
  return { project: PROJECT, session_id: sessionId, label_id: labelId, label_name: name };
}

export function makeMessageLabel(
  questionId: string,
  labelId: number,
  group: string | null = 'group',
): MessageLabelRow {
  return {
    project: PROJECT,
    question_id: questionId,
    label_id: labelId,
    label_name: `label ${labelId}`,
    group_name: group,
  };
}

export function makeClient(id: string, overrides: Partial<ClientRow> = {}): ClientRow {
  return {
    project: PROJECT,
    client_id: id,
    channel_type: 'chatwidget',
    bot_id: 'bot-1',
    first_name: 'Ann',
    last_name: null,
    username: null,
    join_date: T0 - 24 * HOUR,
    last_visit_date: T0,
    last_session_id: null,
    is_blocked: false,
    block_reason: null,
    blocked_by: null,
    block_date: null,
    ...overrides,
  };
}

export function makeBatch(overrides: Partial<WindowBatch> = {}): WindowBatch {
  return {
    project: PROJECT,
    runId: 'run-1',
    from: T0,
    to: T0 + HOUR,
    sessions: [],
    sessionLabels: [],
    sessionData: [],
    sessionDataFor: [],
    messages: [],
    messageLabels: [],
    clients: [],
    rejects: [],
    seenAt: T0 + 2 * HOUR,
    requests: 0,
    ...overrides,
  };
}
