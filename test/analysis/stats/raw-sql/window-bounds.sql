-- window-bounds (raw reference): the first and last session start, and the quarter hours of the first and
-- last message, of the selected projects, from sessions and messages.
SELECT
  (SELECT min(start_time) FROM sessions WHERE list_contains($projects, project)) AS first_session,
  (SELECT max(start_time) FROM sessions WHERE list_contains($projects, project)) AS last_session,
  (SELECT min(epoch_ms("timestamp")) // 900000 FROM messages WHERE list_contains($projects, project)) AS first_q,
  (SELECT max(epoch_ms("timestamp")) // 900000 FROM messages WHERE list_contains($projects, project)) AS last_q
