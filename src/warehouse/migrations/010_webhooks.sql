-- What the platform pushes to `reporter-etl webhooks` (docs/webhooks.md). The receiver spools each request
-- to disk before it answers, then loads the spool in batches; the byte offset loaded so far is etl_state
-- (project 'webhooks', key 'spool:<file name>'), written in the same transaction as the rows.
-- chatapi_webhook_events: one row per object of a Chat API payload (an async answer, an agent reply, a
-- timeout, a campaign message), once per question_id however often the platform resends it. The channel
-- token in the payload is a secret: it is never stored; channel is its name in REPORTER_CHATAPI_CHANNELS
-- (NULL for a token not configured).
CREATE TABLE chatapi_webhook_events (
  question_id VARCHAR NOT NULL,
  channel VARCHAR,
  client_id VARCHAR NOT NULL,
  "timestamp" TIMESTAMPTZ,
  received_at TIMESTAMPTZ NOT NULL,
  nlp_class VARCHAR,
  confidence DOUBLE,
  answer VARCHAR,
  block_form BOOLEAN,
  data JSON
);

-- prompter_answers: one row per Prompter payload (a question the Prompter suggested answers for), with the
-- number of options it gave (0: no intent passed the classifier's threshold).
CREATE TABLE prompter_answers (
  question_id VARCHAR NOT NULL,
  chat_id VARCHAR NOT NULL,
  client_id VARCHAR NOT NULL,
  options INTEGER NOT NULL,
  received_at TIMESTAMPTZ NOT NULL
);

-- prompter_answer_options: one row per option, rank from 1 in the payload's order (confidence descending).
-- text: the texts of the option's messages joined by a newline; markup: its first message's; messages: all
-- of them as JSON (types other than TEXT kept).
CREATE TABLE prompter_answer_options (
  question_id VARCHAR NOT NULL,
  chat_id VARCHAR NOT NULL,
  client_id VARCHAR NOT NULL,
  rank INTEGER NOT NULL,
  intent_id VARCHAR,
  intent_name VARCHAR,
  intent_path VARCHAR,
  confidence DOUBLE,
  text VARCHAR,
  markup VARCHAR,
  messages JSON,
  received_at TIMESTAMPTZ NOT NULL
);
