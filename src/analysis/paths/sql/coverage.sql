-- coverage: what the warehouse holds of each selected project, to say how much of a period it covers
-- (docs/paths.md#against-the-previous-period): its first and last session's start, and the sync's watermark
-- (etl_state key 'watermark', ISO-8601 text; NULL when no sync stored one).
SELECT s.project, min(s.start_time) AS first_start, max(s.start_time) AS last_start,
  (SELECT max(e.value) FROM etl_state e WHERE e.project = s.project AND e.key = 'watermark') AS watermark
FROM sessions s
WHERE list_contains($projects, s.project)
GROUP BY s.project
ORDER BY s.project
