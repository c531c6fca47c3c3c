-- 019_unhandled: clusters of the unhandled questions (docs/unhandled.md), computed from the warehouse by
-- `reporter-etl unhandled`: one run per period and selection (project, channel, catch-all class), replaced
-- whole when the same period is computed again. Texts are stored masked only (e-mails, phones, numbers).
-- Keys (kept by the load, as for every table: 001_init.sql): unhandled_runs (run_id); unhandled_clusters
-- (run_id, cluster_id); unhandled_members (run_id, project, question_id).
CREATE TABLE unhandled_runs (
  -- a hash of the selection and the period: the same period computed again has the same id
  run_id VARCHAR NOT NULL,
  -- '' when every project, every channel
  project VARCHAR NOT NULL,
  channel_type VARCHAR NOT NULL,
  catch_all_class VARCHAR NOT NULL,
  period_from TIMESTAMPTZ NOT NULL,
  period_to TIMESTAMPTZ NOT NULL,
  -- the start of the previous period of the same length (it ends at period_from)
  previous_from TIMESTAMPTZ NOT NULL,
  -- catch-all messages of the period and of the previous period; those of the period in a cluster
  unrecognised BIGINT NOT NULL,
  previous_unrecognised BIGINT NOT NULL,
  clustered BIGINT NOT NULL,
  clusters INTEGER NOT NULL,
  computed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE unhandled_clusters (
  run_id VARCHAR NOT NULL,
  -- stable across periods: a hash of the cluster's core terms
  cluster_id VARCHAR NOT NULL,
  -- 1 = the biggest
  rank INTEGER NOT NULL,
  -- the most central phrasing, masked
  label VARCHAR NOT NULL,
  messages BIGINT NOT NULL,
  previous_messages BIGINT NOT NULL,
  clients BIGINT NOT NULL,
  -- messages / the period's unrecognised
  share DOUBLE NOT NULL,
  -- messages / previous_messages - 1; NULL when the previous period had none
  trend DOUBLE,
  -- sessions in which a later message went to an agent (a transfer or a live-chat message)
  agent_sessions BIGINT NOT NULL,
  channels VARCHAR[] NOT NULL,
  -- up to 5 phrasings, masked, the most frequent first
  examples VARCHAR[] NOT NULL,
  -- the stemmed terms the id is made of
  terms VARCHAR[] NOT NULL
);

CREATE TABLE unhandled_members (
  run_id VARCHAR NOT NULL,
  project VARCHAR NOT NULL,
  question_id VARCHAR NOT NULL,
  cluster_id VARCHAR NOT NULL
);
