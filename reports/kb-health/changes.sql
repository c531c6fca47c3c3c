-- kb-health: how each project's sources changed between its previous snapshot and its latest: removed,
-- new failure (failed now, not before or new), added, status changed. Nothing without a previous snapshot.
WITH ranked AS (
  SELECT snapshot_id, project_id, project_name, taken_at, with_admin,
         row_number() OVER (PARTITION BY project_id ORDER BY taken_at DESC, snapshot_id DESC) AS n
  FROM kb_snapshots
  WHERE taken_at < $to
),
latest AS (SELECT * FROM ranked WHERE n = 1),
previous AS (SELECT * FROM ranked WHERE n = 2),
cur AS (
  SELECT l.project_id, l.project_name, s.source_id, s.name, s.status, s.last_error
  FROM latest l
  JOIN previous p ON p.project_id = l.project_id
  JOIN kb_sources s ON s.snapshot_id = l.snapshot_id
),
prev AS (
  SELECT l.project_id, l.project_name, s.source_id, s.name, s.status
  FROM latest l
  JOIN previous p ON p.project_id = l.project_id
  JOIN kb_sources s ON s.snapshot_id = p.snapshot_id
),
pairs AS (
  SELECT coalesce(c.project_name, v.project_name) AS project_name,
         coalesce(c.source_id, v.source_id) AS source_id, coalesce(c.name, v.name) AS name,
         v.status AS previous_status, c.status, c.last_error
  FROM cur c
  FULL JOIN prev v ON v.project_id = c.project_id AND v.source_id = c.source_id
)
SELECT project_name,
       CASE WHEN status IS NULL THEN 'removed'
            WHEN status = 'FAILED_TO_INGEST' AND coalesce(previous_status, '') <> 'FAILED_TO_INGEST'
              THEN 'new failure'
            WHEN previous_status IS NULL THEN 'added'
            ELSE 'status changed' END AS change,
       source_id, name, previous_status, status, last_error
FROM pairs
WHERE status IS DISTINCT FROM previous_status
ORDER BY project_name, change, source_id
