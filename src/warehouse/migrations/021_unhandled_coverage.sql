-- 021_unhandled_coverage: how well the top clusters of an unhandled run (020_unhandled.sql) are covered
-- (docs/unhandled.md#coverage): per run and cluster, its central question (the label) asked to the knowledge
-- base's retrieval (NULL figures when REPORTER_KB_KEY was not set), and the Prompter's recorded suggestions
-- for the cluster's messages (prompter_requests with the same text, their answer options). Replaced with the
-- run. Key (kept by the load): (run_id, cluster_id).
CREATE TABLE unhandled_coverage (
  run_id VARCHAR NOT NULL,
  cluster_id VARCHAR NOT NULL,
  -- the question asked: the cluster's label (masked)
  central_question VARCHAR NOT NULL,
  -- whether the knowledge base was asked (REPORTER_KB_KEY set and the retrieval answered)
  kb_asked BOOLEAN NOT NULL,
  -- the best chunk's source (NULL when nothing was retrieved) and its score (0 when nothing)
  best_source_id VARCHAR,
  best_source_name VARCHAR,
  score DOUBLE,
  -- the share of the question's terms (its signature, docs/unhandled.md) found in the best chunk
  terms_found DOUBLE,
  -- score >= threshold and terms_found >= terms_threshold; NULL when the knowledge base was not asked
  answerable BOOLEAN,
  threshold DOUBLE NOT NULL,
  terms_threshold DOUBLE NOT NULL,
  -- the retrieval's error when it failed (code: message), else NULL
  kb_error VARCHAR,
  -- Prompter requests with the text of one of the cluster's messages, and their answer options
  prompter_requests BIGINT NOT NULL,
  prompter_suggestions BIGINT NOT NULL,
  -- the intent most often first among those options (intent_path, else intent_name)
  prompter_top_intent VARCHAR,
  computed_at TIMESTAMPTZ NOT NULL
);
