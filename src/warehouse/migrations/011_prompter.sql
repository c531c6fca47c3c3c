-- prompter_requests: the questions `reporter-etl prompter ask` sent to the Prompter API (docs/prompter.md), one
-- row per question of a run (batch_id, seq from 1). question_id is the Prompter's immediate answer (NULL when
-- the request failed); the answer options arrive later through the webhook receiver (prompter_answers,
-- prompter_answer_options, joined by question_id). outcome: 'sent' while the command waits, then 'answered'
-- (an answer was stored within --wait) or 'no_answer'; 'failed' when the request itself failed (reason).
-- channel: the name in REPORTER_CHATAPI_CHANNELS (the token is never stored). (batch_id, seq) is unique by
-- construction; no key constraint (no ART index: see 001_init.sql).
CREATE TABLE prompter_requests (
  batch_id VARCHAR NOT NULL,
  seq INTEGER NOT NULL,
  channel VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  question VARCHAR NOT NULL,
  expected_intent VARCHAR,
  client_id VARCHAR NOT NULL,
  chat_id VARCHAR NOT NULL,
  question_id VARCHAR,
  sent_at TIMESTAMPTZ NOT NULL,
  outcome VARCHAR NOT NULL,
  reason VARCHAR,
  settled_at TIMESTAMPTZ
);
