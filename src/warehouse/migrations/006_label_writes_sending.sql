-- 006_label_writes_sending: a batch of a label write-back is recorded as 'sending' before its bulk-labeling
-- request and settled after it ('success' or 'failed'), so no write reaches the platform unrecorded; while
-- sending, finished_at is null. DuckDB cannot drop a CHECK constraint: the table is rebuilt, rows kept.
CREATE TABLE label_writes_006 (
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
  -- ids sent in the bulk-labeling request (sending, success; 0 when failed or nothing was left to write)
  written INTEGER NOT NULL,
  object_ids VARCHAR[] NOT NULL,
  -- session start_time / message timestamp range of the ids sent: what a sync must re-read to show them
  first_time TIMESTAMPTZ,
  last_time TIMESTAMPTZ,
  -- sending: the request was (about to be) sent and its result not recorded: it may or may not have been
  -- applied (the run stopped before settling it); success: written; unchanged: nothing left to write;
  -- failed: the request failed (see error)
  status VARCHAR NOT NULL CHECK (status IN ('sending', 'success', 'unchanged', 'failed')),
  error VARCHAR,
  started_at TIMESTAMPTZ NOT NULL,
  -- when the batch was settled; null while sending
  finished_at TIMESTAMPTZ,
  os_user VARCHAR,
  host VARCHAR
);
INSERT INTO label_writes_006 SELECT * FROM label_writes;
DROP TABLE label_writes;
ALTER TABLE label_writes_006 RENAME TO label_writes;
