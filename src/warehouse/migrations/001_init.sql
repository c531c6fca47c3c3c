-- 001_init: the warehouse schema. Every table carries `project` (several projects share one file).
-- Timestamps are TIMESTAMPTZ. No PRIMARY KEY / UNIQUE constraints on purpose: DuckDB's unique checks
-- reject delete-then-insert of one key inside one transaction, so uniqueness is kept by the load code
-- (src/warehouse/warehouse-sql.ts: delete by key, then insert the batch deduplicated, last row wins).

-- One row per session (key: project, session_id).
CREATE TABLE sessions (
  project VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  bot_id VARCHAR,
  channel_type VARCHAR,
  client_id VARCHAR,
  client_first_name VARCHAR,
  client_last_name VARCHAR,
  client_username VARCHAR,
  start_time TIMESTAMPTZ NOT NULL,
  duration_ms BIGINT,
  question_count INTEGER,
  first_question VARCHAR,
  last_question VARCHAR,
  is_livechat BOOLEAN,
  session_result VARCHAR,
  call_task_id BIGINT,
  is_call_incoming BOOLEAN,
  synced_at TIMESTAMPTZ NOT NULL
);

-- One row per message (key: project, question_id), in its latest state.
CREATE TABLE messages (
  project VARCHAR NOT NULL,
  question_id VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  "timestamp" TIMESTAMPTZ NOT NULL,
  question VARCHAR,
  text_answer VARCHAR,
  event VARCHAR,
  nlp_class VARCHAR,
  nlp_state VARCHAR,
  confidence DOUBLE,
  status VARCHAR,
  is_livechat BOOLEAN,
  comment VARCHAR,
  processing_time INTEGER,
  exception VARCHAR,
  operator_id VARCHAR,
  is_transfer BOOLEAN,
  synced_at TIMESTAMPTZ NOT NULL
);

-- Labels of a session (key: project, session_id, label_id); replaced whole when the session is loaded.
CREATE TABLE session_labels (
  project VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  label_id BIGINT NOT NULL,
  label_name VARCHAR
);

-- Labels of a message (key: project, question_id, label_id); replaced whole when the message is loaded.
CREATE TABLE message_labels (
  project VARCHAR NOT NULL,
  question_id VARCHAR NOT NULL,
  label_id BIGINT NOT NULL,
  label_name VARCHAR,
  group_name VARCHAR
);

-- sessionData of a session as key/value pairs (key: project, session_id, key).
CREATE TABLE session_data (
  project VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  value VARCHAR
);

-- One row per client (key: project, client_id), with its blocked state.
CREATE TABLE clients (
  project VARCHAR NOT NULL,
  client_id VARCHAR NOT NULL,
  channel_type VARCHAR,
  bot_id VARCHAR,
  first_name VARCHAR,
  last_name VARCHAR,
  username VARCHAR,
  join_date TIMESTAMPTZ,
  last_visit_date TIMESTAMPTZ,
  last_session_id VARCHAR,
  is_blocked BOOLEAN,
  block_reason VARCHAR,
  blocked_by BIGINT,
  block_date TIMESTAMPTZ,
  synced_at TIMESTAMPTZ NOT NULL
);

-- Experiments (key: project, experiment_key); replaced whole per project on each catalogue sync.
CREATE TABLE experiments (
  project VARCHAR NOT NULL,
  experiment_key VARCHAR NOT NULL,
  description VARCHAR,
  status VARCHAR,
  branches VARCHAR[],
  session_count BIGINT,
  synced_at TIMESTAMPTZ NOT NULL
);

-- The session label catalogue (key: project, label_id); replaced whole per project.
CREATE TABLE session_label_catalogue (
  project VARCHAR NOT NULL,
  label_id BIGINT NOT NULL,
  name VARCHAR,
  priority INTEGER
);

-- The message label catalogue with its groups (key: project, label_id); replaced whole per project.
CREATE TABLE message_label_catalogue (
  project VARCHAR NOT NULL,
  label_id BIGINT NOT NULL,
  name VARCHAR,
  priority INTEGER,
  group_id BIGINT,
  group_name VARCHAR,
  group_priority INTEGER
);

-- Each delivery status a message was ever seen in, with when it was first seen
-- (key: project, question_id, status). Rows are only ever added.
CREATE TABLE message_status_history (
  project VARCHAR NOT NULL,
  question_id VARCHAR NOT NULL,
  status VARCHAR NOT NULL,
  first_seen_at TIMESTAMPTZ NOT NULL
);

-- One row per run of a job, with its counters (added to by every committed window).
CREATE TABLE etl_runs (
  run_id VARCHAR NOT NULL,
  project VARCHAR,
  job VARCHAR NOT NULL,
  trigger VARCHAR,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ,
  status VARCHAR NOT NULL CHECK (status IN ('running', 'success', 'partial', 'failed')),
  windows INTEGER NOT NULL DEFAULT 0,
  sessions BIGINT NOT NULL DEFAULT 0,
  messages BIGINT NOT NULL DEFAULT 0,
  requests BIGINT NOT NULL DEFAULT 0,
  rejects BIGINT NOT NULL DEFAULT 0,
  duration_ms BIGINT,
  error VARCHAR,
  pid INTEGER,
  host VARCHAR
);

-- Per-project state (key: project, key); the sync watermark is key 'watermark' with an ISO-8601 value.
CREATE TABLE etl_state (
  project VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  value VARCHAR,
  updated_at TIMESTAMPTZ NOT NULL
);

-- Records that failed validation: kept raw with the error, the rest of their window still loads.
CREATE TABLE etl_rejects (
  run_id VARCHAR NOT NULL,
  project VARCHAR NOT NULL,
  endpoint VARCHAR NOT NULL,
  record_id VARCHAR,
  raw_json VARCHAR,
  error VARCHAR,
  rejected_at TIMESTAMPTZ NOT NULL
);

-- No indexes: DuckDB's ART indexes do not survive the replay of a write-ahead log holding deletes
-- after a crash ("Failed to delete all rows from index"), and exactly-once after kill -9 matters more.
-- Zone maps on start_time / timestamp (rows arrive roughly in time order) keep the scans cheap.
