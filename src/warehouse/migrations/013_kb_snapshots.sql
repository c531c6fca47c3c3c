-- 013_kb_snapshots: the knowledge base service as dated snapshots (docs/kb.md). Each `kb sync` reads the
-- project of REPORTER_KB_KEY whole and writes one snapshot in one transaction: a row of kb_snapshots and
-- the rows of every other kb_ table under its snapshot_id (the id of its run in etl_runs). Nothing is
-- updated in place: "what changed" is a comparison of two snapshots. An API key's value is never stored.

-- One row per snapshot: when, which project, its settings' key figures (and all of them as JSON).
CREATE TABLE kb_snapshots (
  snapshot_id VARCHAR NOT NULL,
  taken_at TIMESTAMPTZ NOT NULL,
  -- REPORTER_KB_BASE_URL of the run
  base_url VARCHAR NOT NULL,
  project_id BIGINT NOT NULL,
  project_name VARCHAR NOT NULL,
  project_status VARCHAR,
  llm_models VARCHAR[],
  indexing_model VARCHAR,
  indexing_llm_model VARCHAR,
  chunking_method VARCHAR,
  search_pipeline VARCHAR,
  generation_model VARCHAR,
  generation_temperature DOUBLE,
  rpm_limit INTEGER,
  -- {indexing, search, generation} as the service answered them
  settings JSON,
  -- whether REPORTER_KB_ADMIN_KEY was set: without it kb_api_keys and kb_access_groups have no rows here
  with_admin BOOLEAN NOT NULL,
  sources INTEGER NOT NULL,
  integrations INTEGER NOT NULL,
  segments INTEGER NOT NULL,
  api_keys INTEGER,
  access_groups INTEGER,
  -- records of the answers that did not fit the contract (in etl_rejects under run_id = snapshot_id)
  rejects INTEGER NOT NULL
);

CREATE TABLE kb_sources (
  snapshot_id VARCHAR NOT NULL,
  source_id BIGINT NOT NULL,
  name VARCHAR NOT NULL,
  type VARCHAR,
  -- READY_TO_INGEST, PROCESSING, INGESTED, FAILED_TO_INGEST, or another value kept as it came
  status VARCHAR NOT NULL,
  last_error VARCHAR,
  size_bytes BIGINT,
  size_chars BIGINT,
  segments VARCHAR[],
  access_groups VARCHAR[],
  version VARCHAR,
  hash VARCHAR,
  created_at TIMESTAMPTZ
);

CREATE TABLE kb_integrations (
  snapshot_id VARCHAR NOT NULL,
  integration_id BIGINT NOT NULL,
  name VARCHAR NOT NULL,
  -- ACTIVE, PAUSED, FAILED, or another value kept as it came
  status VARCHAR NOT NULL,
  last_error VARCHAR,
  auto_sync BOOLEAN,
  sync_interval_minutes INTEGER,
  last_successful_sync_at TIMESTAMPTZ,
  settings_base_url VARCHAR,
  access_groups VARCHAR[]
);

CREATE TABLE kb_segments (
  snapshot_id VARCHAR NOT NULL,
  name VARCHAR NOT NULL,
  sources_count INTEGER NOT NULL
);

-- The project's API keys (administrative key): metadata only, never the key value.
CREATE TABLE kb_api_keys (
  snapshot_id VARCHAR NOT NULL,
  api_key_id BIGINT NOT NULL,
  project_id BIGINT,
  name VARCHAR NOT NULL,
  -- ACTIVE, EXPIRED, REVOKED, or another value kept as it came
  status VARCHAR NOT NULL,
  owner_login VARCHAR,
  created_at TIMESTAMPTZ,
  updated_at TIMESTAMPTZ,
  -- null: a permanent key
  expires_at TIMESTAMPTZ,
  last_used_at TIMESTAMPTZ
);

-- The account's access groups assigned to the project's sources (administrative key).
CREATE TABLE kb_access_groups (
  snapshot_id VARCHAR NOT NULL,
  access_group_id BIGINT NOT NULL,
  name VARCHAR NOT NULL,
  files_count INTEGER,
  integrations_count INTEGER,
  created_at TIMESTAMPTZ,
  updated_at TIMESTAMPTZ
);
