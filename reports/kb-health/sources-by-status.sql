-- kb-health: the sources of each project's latest snapshot by indexing status (a status the contract does
-- not name is shown as it came).
WITH ranked AS (
  SELECT snapshot_id, project_id, project_name, taken_at, with_admin,
         row_number() OVER (PARTITION BY project_id ORDER BY taken_at DESC, snapshot_id DESC) AS n
  FROM kb_snapshots
  WHERE taken_at < $to
),
latest AS (SELECT * FROM ranked WHERE n = 1),
previous AS (SELECT * FROM ranked WHERE n = 2)
SELECT l.project_name, s.status, count(*) AS sources
FROM latest l
JOIN kb_sources s ON s.snapshot_id = l.snapshot_id
GROUP BY ALL
ORDER BY l.project_name, s.status
