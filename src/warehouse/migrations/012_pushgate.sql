-- 012_pushgate: what the pipeline said through Pushgate (docs/pushgate.md). etl_runs.notification: the
-- notification of a run (null: none was due; 'sent'; 'failed: <reason>': it could not be delivered, and the
-- run kept its own status). alerts: every change of an alert rule's state. pushgate_sends: every push of
-- `reporter-etl pushgate send --apply`, recorded as 'sending' before its request and settled after.
ALTER TABLE etl_runs ADD COLUMN notification VARCHAR;

-- One row per change of a rule's state (key: alert_id): 'firing' when the rule starts to hold, 'resolved'
-- when it stops. The latest row of (project, rule) is the rule's state.
CREATE TABLE alerts (
  alert_id VARCHAR NOT NULL,
  project VARCHAR NOT NULL,
  rule VARCHAR NOT NULL,
  state VARCHAR NOT NULL CHECK (state IN ('firing', 'resolved')),
  -- the metric's value over the rule's period (null: no data to compute it from)
  value DOUBLE,
  threshold DOUBLE NOT NULL,
  message VARCHAR NOT NULL,
  -- the sync run after which it was evaluated
  run_id VARCHAR,
  alerted_at TIMESTAMPTZ NOT NULL
);

-- One row per push of `pushgate send --apply` (key: event_id: a resend of the same row has the same one).
CREATE TABLE pushgate_sends (
  event_id VARCHAR NOT NULL,
  -- one invocation of the command; its batches share it
  run_id VARCHAR NOT NULL,
  pushback_id VARCHAR NOT NULL,
  -- the body sent (JSON)
  body VARCHAR NOT NULL,
  -- the SQL the rows were chosen with
  query VARCHAR NOT NULL,
  batch INTEGER NOT NULL,
  batches INTEGER NOT NULL,
  -- sending: the request was (about to be) sent and its result not recorded; sent: 200; failed: see error
  status VARCHAR NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
  error VARCHAR,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ
);
