// The TEMP staging tables of a window or catalogue commit: which row field goes to which column, typed.
// The final tables are filled from these by the set-based SQL in warehouse-sql.ts; staging columns
// already have the final tables' types (times become TIMESTAMPTZ here).
import type {
  ClientRow,
  ExperimentRow,
  MessageLabelCatalogueRow,
  MessageLabelRow,
  MessageRow,
  RejectRow,
  SessionDataRow,
  SessionLabelCatalogueRow,
  SessionLabelRow,
  SessionRow,
} from './rows.js';
import { defineStagedTable } from './stage-rows.js';

/** A session id whose sessionData was read in the batch. */
export interface SessionKey {
  project: string;
  session_id: string;
}

export const STAGING_TABLES = {
  sessions: defineStagedTable<SessionRow>('stage_sessions', [
    ['project', 'varchar'],
    ['session_id', 'varchar'],
    ['bot_id', 'varchar'],
    ['channel_type', 'varchar'],
    ['client_id', 'varchar'],
    ['client_first_name', 'varchar'],
    ['client_last_name', 'varchar'],
    ['client_username', 'varchar'],
    ['start_time', 'timestamptz'],
    ['duration_ms', 'bigint'],
    ['question_count', 'integer'],
    ['first_question', 'varchar'],
    ['last_question', 'varchar'],
    ['is_livechat', 'boolean'],
    ['session_result', 'varchar'],
    ['call_task_id', 'bigint'],
    ['is_call_incoming', 'boolean'],
  ]),
  messages: defineStagedTable<MessageRow>('stage_messages', [
    ['project', 'varchar'],
    ['question_id', 'varchar'],
    ['session_id', 'varchar'],
    ['timestamp', 'timestamptz'],
    ['question', 'varchar'],
    ['text_answer', 'varchar'],
    ['event', 'varchar'],
    ['nlp_class', 'varchar'],
    ['nlp_state', 'varchar'],
    ['confidence', 'double'],
    ['status', 'varchar'],
    ['is_livechat', 'boolean'],
    ['comment', 'varchar'],
    ['processing_time', 'integer'],
    ['exception', 'varchar'],
    ['operator_id', 'varchar'],
    ['is_transfer', 'boolean'],
    ['channel_type', 'varchar'],
  ]),
  sessionLabels: defineStagedTable<SessionLabelRow>('stage_session_labels', [
    ['project', 'varchar'],
    ['session_id', 'varchar'],
    ['label_id', 'bigint'],
    ['label_name', 'varchar'],
  ]),
  messageLabels: defineStagedTable<MessageLabelRow>('stage_message_labels', [
    ['project', 'varchar'],
    ['question_id', 'varchar'],
    ['label_id', 'bigint'],
    ['label_name', 'varchar'],
    ['group_name', 'varchar'],
  ]),
  sessionData: defineStagedTable<SessionDataRow>('stage_session_data', [
    ['project', 'varchar'],
    ['session_id', 'varchar'],
    ['key', 'varchar'],
    ['value', 'varchar'],
  ]),
  sessionDataFor: defineStagedTable<SessionKey>('stage_session_data_for', [
    ['project', 'varchar'],
    ['session_id', 'varchar'],
  ]),
  clients: defineStagedTable<ClientRow>('stage_clients', [
    ['project', 'varchar'],
    ['client_id', 'varchar'],
    ['channel_type', 'varchar'],
    ['bot_id', 'varchar'],
    ['first_name', 'varchar'],
    ['last_name', 'varchar'],
    ['username', 'varchar'],
    ['join_date', 'timestamptz'],
    ['last_visit_date', 'timestamptz'],
    ['last_session_id', 'varchar'],
    ['is_blocked', 'boolean'],
    ['block_reason', 'varchar'],
    ['blocked_by', 'bigint'],
    ['block_date', 'timestamptz'],
  ]),
  rejects: defineStagedTable<RejectRow>('stage_rejects', [
    ['run_id', 'varchar'],
    ['project', 'varchar'],
    ['endpoint', 'varchar'],
    ['record_id', 'varchar'],
    ['raw_json', 'varchar'],
    ['error', 'varchar'],
  ]),
  sessionLabelCatalogue: defineStagedTable<SessionLabelCatalogueRow>('stage_session_label_catalogue', [
    ['project', 'varchar'],
    ['label_id', 'bigint'],
    ['name', 'varchar'],
    ['priority', 'integer'],
  ]),
  messageLabelCatalogue: defineStagedTable<MessageLabelCatalogueRow>('stage_message_label_catalogue', [
    ['project', 'varchar'],
    ['label_id', 'bigint'],
    ['name', 'varchar'],
    ['priority', 'integer'],
    ['group_id', 'bigint'],
    ['group_name', 'varchar'],
    ['group_priority', 'integer'],
  ]),
  experiments: defineStagedTable<ExperimentRow>('stage_experiments', [
    ['project', 'varchar'],
    ['experiment_key', 'varchar'],
    ['description', 'varchar'],
    ['status', 'varchar'],
    ['branches', 'varchar[]'],
    ['session_count', 'bigint'],
  ]),
} as const;
