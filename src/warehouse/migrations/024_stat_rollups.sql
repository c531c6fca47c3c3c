-- 024_stat_rollups: what the statistics read instead of rescanning sessions and messages (docs/statistics.md):
-- rollups of the sessions and messages per project, UTC quarter hour (q = epoch ms // 900,000: every zone's
-- offset is whole quarter hours, so any local period is a union of quarters), channel and figure; narrow
-- per-session rows with each session's client pointers (distinct clients, the partial quarters at a window's
-- edges, exact percentiles); the sessions with a transfer. Kept by every window commit in its own
-- transaction (src/warehouse/commit-rollups-sql.ts), filled here for an existing warehouse and again by
-- `reporter-etl rollups rebuild` (src/warehouse/rebuild-rollups.ts runs the statements after `-- fill`).
-- Derived only: no key is kept by a load, each row is f(the raw rows of its quarter or session).

-- One row per session (key: project, session_id): what the session figures read, with the client pointers
-- that make distinct clients a filtered count: the start of the client's previous session (any channel, and
-- in the same channel; the sessions without a client id of a project are one client, as a GROUP BY counts
-- them) and when the client was first seen (its first session or join date, the earlier; NULL without a
-- client id); transferred: a message of the session is a `switch` reply (stat_transfers).
CREATE TABLE stat_sessions (
  project VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  start_time TIMESTAMPTZ NOT NULL,
  channel_type VARCHAR,
  client_id VARCHAR,
  message_count INTEGER NOT NULL,
  duration_ms BIGINT,
  transferred BOOLEAN NOT NULL,
  prev_start_any TIMESTAMPTZ,
  prev_start_channel TIMESTAMPTZ,
  client_first_seen TIMESTAMPTZ
);

-- Sessions with a `switch` reply, by the quarter hour of that reply (key: project, q, session_id).
CREATE TABLE stat_transfers (
  project VARCHAR NOT NULL,
  q BIGINT NOT NULL,
  session_id VARCHAR NOT NULL
);

-- The session labels with their session's start and channel (NULL while the session is not in the warehouse).
CREATE TABLE stat_session_labels (
  project VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  label_id BIGINT NOT NULL,
  label_name VARCHAR,
  start_time TIMESTAMPTZ,
  channel_type VARCHAR
);

-- The sessionData pairs with their session's start, channel and messages (question_count, 0 when NULL).
CREATE TABLE stat_session_data (
  project VARCHAR NOT NULL,
  session_id VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  value VARCHAR,
  start_time TIMESTAMPTZ,
  channel_type VARCHAR,
  message_count INTEGER
);

-- Sessions per quarter hour (of their start), channel, messages (question_count, 0 when NULL) and transfer,
-- with their durations' count and exact sum: counts, means and the message counts' percentiles.
CREATE TABLE stat_session_quarters (
  project VARCHAR NOT NULL,
  q BIGINT NOT NULL,
  channel_type VARCHAR,
  message_count INTEGER NOT NULL,
  transferred BOOLEAN NOT NULL,
  sessions BIGINT NOT NULL,
  durations BIGINT NOT NULL,
  duration_ms_sum HUGEINT
);

-- Sessions per quarter hour, channel and whole minute of duration: where a duration percentile's rank falls
-- (its exact value is then read from the sessions of that minute, stat_sessions).
CREATE TABLE stat_duration_quarters (
  project VARCHAR NOT NULL,
  q BIGINT NOT NULL,
  channel_type VARCHAR,
  duration_minute BIGINT NOT NULL,
  sessions BIGINT NOT NULL
);

-- Sessions per quarter hour, channel and session label, with a name the label carried.
CREATE TABLE stat_session_label_quarters (
  project VARCHAR NOT NULL,
  q BIGINT NOT NULL,
  channel_type VARCHAR,
  label_id BIGINT NOT NULL,
  label_name VARCHAR,
  sessions BIGINT NOT NULL
);

-- Sessions per quarter hour, channel, sessionData pair and transfer, with their messages' sum (experiments).
CREATE TABLE stat_session_data_quarters (
  project VARCHAR NOT NULL,
  q BIGINT NOT NULL,
  channel_type VARCHAR,
  key VARCHAR NOT NULL,
  value VARCHAR,
  transferred BOOLEAN NOT NULL,
  sessions BIGINT NOT NULL,
  message_count_sum BIGINT NOT NULL
);

-- Messages per quarter hour, channel, latest status and NLP class; the confidences as an exact decimal sum
-- (18 decimals), so a mean over any set of quarters is the same to the last digit whatever the order.
CREATE TABLE stat_message_quarters (
  project VARCHAR NOT NULL,
  q BIGINT NOT NULL,
  channel_type VARCHAR,
  status VARCHAR,
  nlp_class VARCHAR,
  messages BIGINT NOT NULL,
  confidences BIGINT NOT NULL,
  confidence_sum DECIMAL(38, 18)
);

-- Labelled messages per quarter hour, channel and label, with a name the label carried.
CREATE TABLE stat_label_quarters (
  project VARCHAR NOT NULL,
  q BIGINT NOT NULL,
  channel_type VARCHAR,
  label_id BIGINT NOT NULL,
  label_name VARCHAR,
  group_name VARCHAR,
  messages BIGINT NOT NULL
);

-- fill
INSERT INTO stat_transfers
SELECT DISTINCT project, epoch_ms("timestamp") // 900000 AS q, session_id
FROM messages WHERE is_transfer
ORDER BY q;

INSERT INTO stat_sessions
SELECT s.project, s.session_id, s.start_time, s.channel_type, s.client_id, coalesce(s.question_count, 0),
  s.duration_ms,
  (s.project, s.session_id) IN (SELECT (project, session_id) FROM stat_transfers),
  lag(s.start_time) OVER (PARTITION BY s.project, s.client_id ORDER BY s.start_time, s.session_id),
  lag(s.start_time) OVER (PARTITION BY s.project, s.client_id, s.channel_type ORDER BY s.start_time, s.session_id),
  CASE WHEN s.client_id IS NOT NULL THEN
    least(min(s.start_time) OVER (PARTITION BY s.project, s.client_id), c.join_date) END
FROM sessions AS s
LEFT JOIN clients AS c ON c.project = s.project AND c.client_id = s.client_id
ORDER BY s.start_time;

INSERT INTO stat_session_labels
SELECT l.project, l.session_id, l.label_id, l.label_name, s.start_time, s.channel_type
FROM session_labels AS l
LEFT JOIN sessions AS s ON s.project = l.project AND s.session_id = l.session_id
ORDER BY s.start_time;

INSERT INTO stat_session_data
SELECT d.project, d.session_id, d.key, d.value, s.start_time, s.channel_type, coalesce(s.question_count, 0)
FROM session_data AS d
LEFT JOIN sessions AS s ON s.project = d.project AND s.session_id = d.session_id
ORDER BY s.start_time;

INSERT INTO stat_session_quarters
SELECT project, epoch_ms(start_time) // 900000 AS q, channel_type, message_count, transferred, count(*),
  count(duration_ms), sum(duration_ms::HUGEINT)
FROM stat_sessions
GROUP BY project, q, channel_type, message_count, transferred
ORDER BY q;

INSERT INTO stat_duration_quarters
SELECT project, epoch_ms(start_time) // 900000 AS q, channel_type, duration_ms // 60000 AS duration_minute, count(*)
FROM stat_sessions
WHERE duration_ms IS NOT NULL
GROUP BY project, q, channel_type, duration_minute
ORDER BY q;

INSERT INTO stat_session_label_quarters
SELECT project, epoch_ms(start_time) // 900000 AS q, channel_type, label_id, any_value(label_name), count(*)
FROM stat_session_labels
WHERE start_time IS NOT NULL
GROUP BY project, q, channel_type, label_id
ORDER BY q;

INSERT INTO stat_session_data_quarters
SELECT d.project, epoch_ms(d.start_time) // 900000 AS q, d.channel_type, d.key, d.value, s.transferred, count(*),
  sum(d.message_count)
FROM stat_session_data AS d
JOIN stat_sessions AS s ON s.project = d.project AND s.session_id = d.session_id
WHERE d.start_time IS NOT NULL
GROUP BY d.project, q, d.channel_type, d.key, d.value, s.transferred
ORDER BY q;

INSERT INTO stat_message_quarters
SELECT project, epoch_ms("timestamp") // 900000 AS q, channel_type, status, nlp_class, count(*), count(confidence),
  sum(confidence::DECIMAL(38, 18))
FROM messages
GROUP BY project, q, channel_type, status, nlp_class
ORDER BY q;

INSERT INTO stat_label_quarters
SELECT project, epoch_ms("timestamp") // 900000 AS q, channel_type, label_id, any_value(label_name),
  any_value(group_name), count(*)
FROM message_labels
WHERE "timestamp" IS NOT NULL
GROUP BY project, q, channel_type, label_id
ORDER BY q;
