-- 025_unhandled_carry_over: what a run of the unhandled questions (020_unhandled.sql, docs/unhandled.md) needs
-- to carry its topics' ids over to the next run, and "other" said plainly. NULL for the runs before it (their
-- clusters have no profile: a later run does not carry ids over from them).
-- Each topic's profile: its centre in word space as JSON, [[stem, weight, messages], ...] heaviest first
-- (40 terms at most), what the next run compares its topics with.
ALTER TABLE unhandled_clusters ADD COLUMN profile VARCHAR;
-- The period's catch-all messages that joined no topic, and their distinct (masked) texts.
ALTER TABLE unhandled_runs ADD COLUMN other_messages BIGINT;
ALTER TABLE unhandled_runs ADD COLUMN other_texts BIGINT;
-- Where the texts' vectors came from: 'lsa' (the default) or 'embeddings:<model>' (REPORTER_EMBEDDINGS_URL).
ALTER TABLE unhandled_runs ADD COLUMN vectors VARCHAR;
-- The stored run whose topics' ids carried over (NULL: none, ids from terms alone).
ALTER TABLE unhandled_runs ADD COLUMN previous_run_id VARCHAR;
