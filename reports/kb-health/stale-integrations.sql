-- kb-health: the integrations of each project's latest snapshot that sync automatically and have had no
-- successful sync for more than $factor times their interval (or never), measured at the snapshot's time.
-- integration_id as text: an int64 beyond 2^53 keeps every digit in the sheet.
WITH ranked AS (
  SELECT snapshot_id, project_id, project_name, taken_at, with_admin,
         row_number() OVER (PARTITION BY project_id ORDER BY taken_at DESC, snapshot_id DESC) AS n
  FROM kb_snapshots
  WHERE taken_at < $to
),
latest AS (SELECT * FROM ranked WHERE n = 1),
previous AS (SELECT * FROM ranked WHERE n = 2)
SELECT l.project_name, CAST(i.integration_id AS VARCHAR) AS integration_id, i.name, i.status, i.sync_interval_minutes,
       i.last_successful_sync_at,
       (epoch_ms(l.taken_at) - epoch_ms(i.last_successful_sync_at)) / 3600000.0 AS hours_since_success,
       (epoch_ms(l.taken_at) - epoch_ms(i.last_successful_sync_at)) / (i.sync_interval_minutes * 60000.0)
         AS intervals_since_success,
       i.last_error
FROM latest l
JOIN kb_integrations i ON i.snapshot_id = l.snapshot_id
WHERE i.auto_sync AND i.sync_interval_minutes > 0
  AND (i.last_successful_sync_at IS NULL
       OR epoch_ms(l.taken_at) - epoch_ms(i.last_successful_sync_at)
          > $factor * i.sync_interval_minutes * 60000)
ORDER BY l.project_name, i.integration_id
