-- The Chat API as a source (docs/chatapi.md). Channels are named by REPORTER_CHATAPI_CHANNELS: a channel's
-- token is a secret and is stored nowhere.
-- chatapi_events: what `chatapi-events` read from GET /chatapi/{token}/events (all=true, an explicit ts), one
-- row per event however often it was read: event_key is the SHA-256 of the event's canonical JSON (events
-- carry no id). event_time is the event's own timestamp; the follower's cursor is etl_state
-- (project 'chatapi:<channel>', key 'events_ts').
CREATE TABLE chatapi_events (
  channel VARCHAR NOT NULL,
  event_key VARCHAR NOT NULL,
  type VARCHAR NOT NULL,
  client_id VARCHAR,
  cid VARCHAR,
  question_id VARCHAR,
  event_time TIMESTAMPTZ NOT NULL,
  event JSON,
  received_at TIMESTAMPTZ NOT NULL
);

-- chatapi_messages: the history of the channel's clients (GET …/client/{clientId}/history), read by the sync
-- after each project's Reporter data for the clients whose `chatapi` messages it stored in the range. Key
-- (channel, question_id, type): a question (`client`) and its answer (`bot` or `operator`) share the
-- questionId. Rows of a re-read replace the stored ones (a status moves on). status: SENT, DELIVERED, READ or
-- NOT_SENT on bot and agent messages (another value is kept as it is). project: the Reporter project of the
-- client's sessions. The range's watermark: etl_state (project 'chatapi:<channel>', key 'history_watermark').
CREATE TABLE chatapi_messages (
  channel VARCHAR NOT NULL,
  project VARCHAR NOT NULL,
  client_id VARCHAR NOT NULL,
  question_id VARCHAR NOT NULL,
  type VARCHAR NOT NULL,
  message_time TIMESTAMPTZ NOT NULL,
  query VARCHAR,
  event VARCHAR,
  replies JSON,
  status VARCHAR,
  synced_at TIMESTAMPTZ NOT NULL
);

-- chatapi_unread_counts: a dated snapshot per sync and client of GET …/message-not-read-count (bot and agent
-- messages not READ), for the clients of the range.
CREATE TABLE chatapi_unread_counts (
  channel VARCHAR NOT NULL,
  project VARCHAR NOT NULL,
  client_id VARCHAR NOT NULL,
  unread INTEGER NOT NULL,
  taken_at TIMESTAMPTZ NOT NULL
);
