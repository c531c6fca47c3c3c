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
