-- The runs of `reporter-etl kb eval` (docs/kb-eval.md), kept side by side so a run can be compared with the
-- one before it. kb_eval_runs: one row per run, inserted `running` before the first question and finished
-- with its figures (a crashed run stays `running` with the questions it recorded until the next run closes
-- it as `abandoned`, its heartbeat stale). kb_eval_questions: one row
-- per question (run_id, seq from 1), written as soon as the question settles, so a stopped or failed run
-- loses nothing it had done. kb_eval_chunks: the chunks retrieval returned for a question (rank from 1 in
-- the service's order). Times are TIMESTAMPTZ, durations ms. Keys unique by construction; no ART index
-- (see 001_init.sql). No secret is stored: the key is named by its setting only.
CREATE TABLE kb_eval_runs (
  run_id VARCHAR NOT NULL,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ,
  -- running, success (every question answered), partial (some failed), failed (none answered, or the key
  -- was refused and the rest were not asked), stopped (Ctrl-C / SIGTERM: the rest were not asked), abandoned
  -- (left `running` by a process killed outright; closed by the next run). Only success and partial runs
  -- asked every question: only they are baselines (views below)
  status VARCHAR NOT NULL,
  kb_base_url VARCHAR NOT NULL,
  project_id BIGINT,
  project_name VARCHAR,
  -- the questions file's name, or `sql`; question_query holds the --sql text
  question_source VARCHAR NOT NULL,
  question_query VARCHAR,
  -- sha256 of the question set (each question's key, text, sorted expected sources and answer texts, the
  -- questions sorted): runs are compared only within one set (a --limit run is a set of its own)
  question_set VARCHAR NOT NULL,
  -- async (POST /async/query + long-polled GET /query/{id}) or stream (SSE POST /query/stream)
  mode VARCHAR NOT NULL,
  -- JSON: {concurrency, waitTimeSeconds, timeoutSeconds, streamRetries}
  settings VARCHAR NOT NULL,
  questions INTEGER NOT NULL,
  answered INTEGER,
  failures INTEGER,
  retrieval_failures INTEGER,
  with_expected_sources INTEGER,
  hit_at_1 DOUBLE,
  hit_at_5 DOUBLE,
  mrr DOUBLE,
  with_expected_answer INTEGER,
  answer_contains_rate DOUBLE,
  latency_p50_ms DOUBLE,
  latency_p95_ms DOUBLE,
  -- HTTP requests of the run (retries included) and, of them, generation status requests
  requests INTEGER,
  status_requests INTEGER,
  duration_ms BIGINT,
  error VARCHAR,
  -- refreshed every few seconds while the run is `running` (src/warehouse/lease.ts): a `running` run whose
  -- heartbeat is stale belongs to a process killed outright, and the next run closes it as `abandoned`
  heartbeat_at TIMESTAMPTZ
);

CREATE TABLE kb_eval_questions (
  run_id VARCHAR NOT NULL,
  seq INTEGER NOT NULL,
  -- what joins a question across runs: the file's id, else the question's text
  question_key VARCHAR NOT NULL,
  question VARCHAR NOT NULL,
  expected_sources VARCHAR[] NOT NULL,
  expected_answer_contains VARCHAR[] NOT NULL,
  -- ok or error (retrieval_error says why)
  retrieval_status VARCHAR NOT NULL,
  retrieval_error VARCHAR,
  retrieval_ms BIGINT,
  chunks INTEGER NOT NULL,
  -- rank of the first chunk from an expected source; NULL: none, or nothing expected
  hit_rank INTEGER,
  query_id BIGINT,
  -- the QueryRecord's last status as the service gave it (FINISHED, FAILED, CANCELED, or any other value)
  query_status VARCHAR,
  -- answered, failed (the service's FAILED / CANCELED / another final status) or error (error_code says why:
  -- kb.auth, kb.stream_cut, kb.timeout, kb.unavailable, ...)
  status VARCHAR NOT NULL,
  answer VARCHAR,
  answer_contains BOOLEAN,
  relevant_sources VARCHAR[],
  -- from submitting the generation to its final record
  latency_ms BIGINT,
  status_requests INTEGER NOT NULL,
  -- generations started for it: 2 when a cut stream was tried again
  attempts INTEGER NOT NULL,
  error_code VARCHAR,
  error VARCHAR,
  -- false for a question recorded `not asked` (the run stopped, or the key refused before it): never compared
  asked BOOLEAN NOT NULL,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE kb_eval_chunks (
  run_id VARCHAR NOT NULL,
  seq INTEGER NOT NULL,
  rank INTEGER NOT NULL,
  source_id BIGINT,
  source_title VARCHAR,
  doc_id VARCHAR,
  score DOUBLE,
  is_expected BOOLEAN NOT NULL,
  content VARCHAR
);

-- Each finished run beside the previous run of the same knowledge base project and question set
-- (question_set) that finished normally (success or partial: every question asked; a stopped, failed,
-- abandoned or running run is never a baseline): the figures of both and their change (negative: a drop).
-- `baseline`: whether this run may itself be a baseline (and headline report kb-eval).
CREATE VIEW kb_eval_run_changes AS
WITH finished AS (
  SELECT *, status IN ('success', 'partial') AS baseline,
    last_value(CASE WHEN status IN ('success', 'partial') THEN run_id END IGNORE NULLS) OVER (
      PARTITION BY coalesce(project_id, -1), question_set ORDER BY started_at, run_id
      ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
    ) AS previous_run_id
  FROM kb_eval_runs
  WHERE status <> 'running'
)
SELECT
  r.run_id, r.started_at, r.project_id, r.project_name, r.question_source, r.question_set, r.mode, r.status,
  r.baseline, r.questions,
  r.previous_run_id, p.started_at AS previous_started_at,
  r.hit_at_1, p.hit_at_1 AS previous_hit_at_1, r.hit_at_1 - p.hit_at_1 AS hit_at_1_change,
  r.hit_at_5, p.hit_at_5 AS previous_hit_at_5, r.hit_at_5 - p.hit_at_5 AS hit_at_5_change,
  r.mrr, p.mrr AS previous_mrr, r.mrr - p.mrr AS mrr_change,
  r.answer_contains_rate, p.answer_contains_rate AS previous_answer_contains_rate,
  r.answer_contains_rate - p.answer_contains_rate AS answer_contains_rate_change,
  r.failures, p.failures AS previous_failures, r.failures - p.failures AS failures_change,
  r.latency_p50_ms, p.latency_p50_ms AS previous_latency_p50_ms,
  r.latency_p95_ms, p.latency_p95_ms AS previous_latency_p95_ms
FROM finished r
LEFT JOIN kb_eval_runs p ON p.run_id = r.previous_run_id;

-- Each question of a finished run beside the same question (by question_key) in the previous comparable run
-- (kb_eval_run_changes). Only questions asked in both runs are compared (a question recorded `not asked` is
-- neither regressed nor improved): `regressed` when it was found (hit within 5) and is not, or it was
-- answered with the expected text and is not, or it was answered and now failed; `improved` the reverse.
CREATE VIEW kb_eval_question_changes AS
SELECT
  c.run_id, c.previous_run_id, q.seq, q.question_key, q.question,
  q.hit_rank, pq.hit_rank AS previous_hit_rank,
  q.status, pq.status AS previous_status,
  q.answer_contains, pq.answer_contains AS previous_answer_contains,
  q.latency_ms, pq.latency_ms AS previous_latency_ms,
  pq.seq IS NOT NULL AS in_previous,
  q.asked,
  coalesce(q.asked AND pq.asked AND (
    (pq.hit_rank <= 5 AND (q.hit_rank IS NULL OR q.hit_rank > 5))
    OR (pq.answer_contains AND NOT coalesce(q.answer_contains, false))
    OR (pq.status = 'answered' AND q.status <> 'answered')
  ), false) AS regressed,
  coalesce(q.asked AND pq.asked AND (
    (q.hit_rank <= 5 AND (pq.hit_rank IS NULL OR pq.hit_rank > 5))
    OR (q.answer_contains AND NOT coalesce(pq.answer_contains, false))
    OR (q.status = 'answered' AND pq.status <> 'answered')
  ), false) AS improved
FROM kb_eval_run_changes c
JOIN kb_eval_questions q ON q.run_id = c.run_id
LEFT JOIN kb_eval_questions pq ON pq.run_id = c.previous_run_id AND pq.question_key = q.question_key;
