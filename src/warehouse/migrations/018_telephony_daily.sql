-- 018_telephony_daily: the platform's call statistics (stats/telephony) per UTC day and project
-- (docs/telephony.md): incoming and outgoing calls, billed calls and the average call duration, as the
-- platform counts them. A day is read again while it may still change and replaces its row.
-- Key: project, day (kept by the load, as for every table: 001_init.sql).
CREATE TABLE telephony_daily (
  project VARCHAR NOT NULL,
  day DATE NOT NULL,
  incoming_calls BIGINT NOT NULL,
  outgoing_calls BIGINT NOT NULL,
  billed_calls BIGINT NOT NULL,
  -- averageCallDurationInSeconds of the day; NULL on a day without calls (the platform answers 0)
  average_call_seconds DOUBLE,
  synced_at TIMESTAMPTZ NOT NULL
);
