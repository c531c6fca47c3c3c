// The rows that sync hands to the warehouse: plain values (times as epoch ms, no bigint), one interface
// per table, and the WindowBatch that commits atomically with its watermark and run counters.
// The warehouse knows nothing about HTTP; sync builds these from validated API records.

export interface SessionRow {
  project: string;
  session_id: string;
  bot_id: string;
  /** Normalised lower-case: `chatwidget`, not `CHAT_WIDGET`. */
  channel_type: string;
  client_id: string;
  client_first_name: string | null;
  client_last_name: string | null;
  client_username: string | null;
  start_time: number;
  duration_ms: number | null;
  question_count: number | null;
  first_question: string | null;
  last_question: string | null;
  is_livechat: boolean;
  session_result: string | null;
  call_task_id: number | null;
  is_call_incoming: boolean | null;
}

export interface SessionLabelRow {
  project: string;
  session_id: string;
  label_id: number;
  label_name: string;
}

export interface SessionDataRow {
  project: string;
  session_id: string;
  key: string;
  value: string;
}

export interface MessageRow {
  project: string;
  question_id: string;
  session_id: string;
  /**
   * The message's channel, normalised lower-case like sessions.channel_type (from the channelType of
   * messages/filter); null when the record did not say.
   */
  channel_type: string | null;
  timestamp: number;
  question: string | null;
  text_answer: string | null;
  event: string | null;
  nlp_class: string | null;
  nlp_state: string | null;
  confidence: number | null;
  /** Latest delivery status (SENT, DELIVERED, READ, NOT_SENT, NOT_DELIVERED) or null where the channel has none. */
  status: string | null;
  is_livechat: boolean;
  comment: string | null;
  processing_time: number | null;
  exception: string | null;
  operator_id: string | null;
  /** The bot's answer handed the dialog to an agent (a `switch` reply). */
  is_transfer: boolean;
}

export interface MessageLabelRow {
  project: string;
  question_id: string;
  label_id: number;
  label_name: string;
  group_name: string | null;
}

export interface ClientRow {
  project: string;
  client_id: string;
  channel_type: string | null;
  bot_id: string | null;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  join_date: number | null;
  last_visit_date: number | null;
  last_session_id: string | null;
  is_blocked: boolean;
  block_reason: string | null;
  blocked_by: number | null;
  block_date: number | null;
}

export interface RejectRow {
  run_id: string;
  project: string;
  endpoint: string;
  /** The id of the record when it could be read (session_id or question_id), else null. */
  record_id: string | null;
  raw_json: string;
  error: string;
}

/** Everything read for one time window of one project, committed in one transaction. */
export interface WindowBatch {
  project: string;
  runId: string;
  /** The window [from, to) in epoch ms. */
  from: number;
  to: number;
  sessions: SessionRow[];
  /** Labels of exactly the sessions in `sessions` (their previous labels are replaced). */
  sessionLabels: SessionLabelRow[];
  /** sessionData of the sessions in `sessions` whose data was read (replaced for those sessions only). */
  sessionData: SessionDataRow[];
  /** Session ids whose sessionData was read in this batch (legacy reads none). */
  sessionDataFor: string[];
  messages: MessageRow[];
  /** Labels of exactly the messages in `messages` (their previous labels are replaced). */
  messageLabels: MessageLabelRow[];
  clients: ClientRow[];
  rejects: RejectRow[];
  /** When the statuses of this batch were seen (first-seen time of new status history rows). */
  seenAt: number;
  /** Move the project's watermark to this time (epoch ms) in the same transaction; absent for backfills. */
  watermark?: number;
  /** Requests added to the run's record: the run's since the commit before this one (the sync sets it). */
  requests: number;
}

export interface SessionLabelCatalogueRow {
  project: string;
  label_id: number;
  name: string;
  priority: number | null;
}

export interface MessageLabelCatalogueRow {
  project: string;
  label_id: number;
  name: string;
  priority: number | null;
  group_id: number | null;
  group_name: string | null;
  group_priority: number | null;
}

export interface ExperimentRow {
  project: string;
  experiment_key: string;
  description: string | null;
  status: string | null;
  /** Branch keys, in order. */
  branches: string[];
  /** Sessions joined, from count-sessions (null when the platform did not say). */
  session_count: number | null;
}

/** Per-run catalogues: replaced whole for the project. */
export interface CatalogueBatch {
  project: string;
  runId: string;
  sessionLabels: SessionLabelCatalogueRow[];
  messageLabels: MessageLabelCatalogueRow[];
  experiments: ExperimentRow[];
}
