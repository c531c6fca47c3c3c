-- kb-health: the API keys (administrative key needed at sync time) of each project's latest snapshot that
-- are neither revoked nor expired and expire within $days days of the snapshot's time.
WITH ranked AS (
  SELECT snapshot_id, project_id, project_name, taken_at, with_admin,
         row_number() OVER (PARTITION BY project_id ORDER BY taken_at DESC, snapshot_id DESC) AS n
  FROM kb_snapshots
  WHERE taken_at < $to
),
latest AS (SELECT * FROM ranked WHERE n = 1),
previous AS (SELECT * FROM ranked WHERE n = 2)
SELECT l.project_name, k.api_key_id, k.name, k.status, k.owner_login, k.expires_at,
       (epoch_ms(k.expires_at) - epoch_ms(l.taken_at)) / 86400000.0 AS days_left, k.last_used_at
FROM latest l
JOIN kb_api_keys k ON k.snapshot_id = l.snapshot_id
WHERE k.status NOT IN ('REVOKED', 'EXPIRED')
  AND k.expires_at > l.taken_at
  AND epoch_ms(k.expires_at) - epoch_ms(l.taken_at) <= $days * 86400000
ORDER BY l.project_name, k.expires_at, k.api_key_id
