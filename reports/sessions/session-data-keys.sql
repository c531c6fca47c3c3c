-- session-data-keys: the sessionData keys of the period's sessions, by name: one column each in `sessions`.
SELECT DISTINCT d.key
FROM session_data AS d
JOIN sessions AS s ON s.project = d.project AND s.session_id = d.session_id
WHERE list_contains($projects, s.project) AND s.start_time >= $from AND s.start_time < $to
ORDER BY d.key
