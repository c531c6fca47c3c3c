-- kb-health: the snapshot of each knowledge base project the report reads (its latest taken before $to)
-- and the one before it, with the snapshot's counts.
WITH ranked AS (
  SELECT snapshot_id, project_id, project_name, taken_at, with_admin,
         row_number() OVER (PARTITION BY project_id ORDER BY taken_at DESC, snapshot_id DESC) AS n
  FROM kb_snapshots
  WHERE taken_at < $to
),
latest AS (SELECT * FROM ranked WHERE n = 1),
previous AS (SELECT * FROM ranked WHERE n = 2)
SELECT l.project_name, l.project_id, l.snapshot_id, l.taken_at, p.snapshot_id AS previous_snapshot_id,
       p.taken_at AS previous_taken_at, s.sources, s.integrations, s.segments, s.api_keys, s.access_groups,
       s.with_admin, s.rejects, s.generation_model, s.rpm_limit
FROM latest l
JOIN kb_snapshots s ON s.snapshot_id = l.snapshot_id
LEFT JOIN previous p ON p.project_id = l.project_id
ORDER BY l.project_name, l.project_id
