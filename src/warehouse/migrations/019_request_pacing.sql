-- 019_request_pacing: how a sync paced its requests against the server, in etl_runs: the most requests in
-- flight its client grew to (REPORTER_CONCURRENCY up to REPORTER_MAX_CONCURRENCY) and the answers that were
-- 429 (Too Many Requests). NULL for the runs before this migration and for other jobs.
ALTER TABLE etl_runs ADD COLUMN concurrency_reached INTEGER;
ALTER TABLE etl_runs ADD COLUMN throttled INTEGER;
