-- 015_unknown_values: etl_runs.unknown_values, the values of enumerated API fields a sync did not know (a
-- delivery status the platform added later), kept as given and counted per field and value:
-- {"message.status": {"QUEUED": 12}}. NULL when there were none (and for the runs before this migration).
ALTER TABLE etl_runs ADD COLUMN unknown_values JSON;
