-- window-bounds: the first and last instant of the selected projects' data (sessions by start_time,
-- messages by timestamp), the default window of `stats` when --from / --to are not given.
SELECT
  least(
    (SELECT min(start_time) FROM sessions WHERE list_contains($projects, project)),
    (SELECT min("timestamp") FROM messages WHERE list_contains($projects, project))
  ) AS first_at,
  greatest(
    (SELECT max(start_time) FROM sessions WHERE list_contains($projects, project)),
    (SELECT max("timestamp") FROM messages WHERE list_contains($projects, project))
  ) AS last_at
