-- 003_label_writes: every label write-back of `reporter-etl label-sessions` / `label-messages --apply`,
-- one row per batch (one bulk-labeling request): what was written (label, ids, the analyst's query), when,
-- how many, and the result. Rows are only ever added. (key: write_id)
CREATE TABLE label_writes (
  write_id VARCHAR NOT NULL,
  -- one invocation of the command; its batches share it
  run_id VARCHAR NOT NULL,
  project VARCHAR NOT NULL,
  -- what was labelled: 'session' (ids are session_id) or 'message' (ids are question_id)
  target VARCHAR NOT NULL CHECK (target IN ('session', 'message')),
  label_id BIGINT NOT NULL,
  label_name VARCHAR NOT NULL,
  -- the message label's group; null for session labels
  group_name VARCHAR,
  -- the SQL the analyst chose the rows with
  query VARCHAR NOT NULL,
  batch INTEGER NOT NULL,
  batches INTEGER NOT NULL,
  -- ids of this batch: none carried the label in the warehouse
  requested INTEGER NOT NULL,
  -- of those, already labelled on the platform (not sent again)
  already_labelled INTEGER NOT NULL,
  -- of those, not found on the platform (not sent)
  missing INTEGER NOT NULL,
  -- ids sent in the bulk-labeling request (0 when nothing was left to write)
  written INTEGER NOT NULL,
  object_ids VARCHAR[] NOT NULL,
  -- session start_time / message timestamp range of the ids sent: what a sync must re-read to show them
  first_time TIMESTAMPTZ,
  last_time TIMESTAMPTZ,
  -- success: written; unchanged: nothing left to write; failed: the request failed (see error)
  status VARCHAR NOT NULL CHECK (status IN ('success', 'unchanged', 'failed')),
  error VARCHAR,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ NOT NULL,
  os_user VARCHAR,
  host VARCHAR
);
