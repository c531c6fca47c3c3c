-- kb-health: the sources that failed to ingest in each project's latest snapshot, with their error;
-- new_failure: it was not failed (or did not exist) in the previous snapshot (null: there is none).
WITH ranked AS (
  SELECT snapshot_id, project_id, project_name, taken_at, with_admin,
         row_number() OVER (PARTITION BY project_id ORDER BY taken_at DESC, snapshot_id DESC) AS n
  FROM kb_snapshots
  WHERE taken_at < $to
),
latest AS (SELECT * FROM ranked WHERE n = 1),
previous AS (SELECT * FROM ranked WHERE n = 2)
SELECT l.project_name, s.source_id, s.name, s.type, s.last_error, s.created_at, s.version,
       CASE WHEN p.snapshot_id IS NULL THEN NULL
            ELSE coalesce(ps.status, '') <> 'FAILED_TO_INGEST' END AS new_failure
FROM latest l
JOIN kb_sources s ON s.snapshot_id = l.snapshot_id
LEFT JOIN previous p ON p.project_id = l.project_id
LEFT JOIN kb_sources ps ON ps.snapshot_id = p.snapshot_id AND ps.source_id = s.source_id
WHERE s.status = 'FAILED_TO_INGEST'
ORDER BY l.project_name, s.source_id
