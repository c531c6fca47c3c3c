-- 002_platform_report_tasks: the platform's own report tasks asked for by `reporter-etl platform-report`.
-- A row is written BEFORE the create request is sent (status 'creating') and updated with the request and
-- task ids as soon as the platform answers, so a restart finishes the task instead of creating it again.
-- No file URL is stored: on the legacy generation it carries the token in its path.

-- One row per task record (key: id). status: creating (create request sent, no answer recorded yet),
-- pending (created, not finished), completed (downloaded, verified, renamed into place), failed,
-- expired (file URL answered 410; requested again by the row whose `replaces` is this id), deleted.
CREATE TABLE platform_report_tasks (
  id VARCHAR NOT NULL,
  project VARCHAR NOT NULL,
  api VARCHAR NOT NULL,
  base_url VARCHAR NOT NULL,
  kind VARCHAR NOT NULL,
  period_from TIMESTAMPTZ,
  period_to TIMESTAMPTZ,
  filters VARCHAR,
  file_type VARCHAR,
  request VARCHAR NOT NULL,
  request_id VARCHAR,
  request_time TIMESTAMPTZ,
  task_id VARCHAR,
  status VARCHAR NOT NULL CHECK (status IN ('creating', 'pending', 'completed', 'failed', 'expired', 'deleted')),
  platform_status VARCHAR,
  write_count BIGINT,
  total_count BIGINT,
  file_name VARCHAR,
  file_path VARCHAR,
  file_rows BIGINT,
  last_event_time TIMESTAMPTZ,
  tasks_before VARCHAR[],
  replaces VARCHAR,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ,
  owner_pid INTEGER,
  owner_host VARCHAR,
  error VARCHAR
);
