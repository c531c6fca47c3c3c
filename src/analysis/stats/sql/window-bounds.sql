-- window-bounds: the first and last instant of the selected projects' data (sessions by start_time,
-- messages by timestamp), the default window of `stats` when --from / --to are not given: the sessions'
-- from stat_sessions, the messages' first and last quarter hour from stat_message_quarters (whose rows
-- message-bounds.sql then reads for the instant).
SELECT
  (SELECT min(start_time) FROM stat_sessions WHERE list_contains($projects, project)) AS first_session,
  (SELECT max(start_time) FROM stat_sessions WHERE list_contains($projects, project)) AS last_session,
  (SELECT min(q) FROM stat_message_quarters WHERE list_contains($projects, project)) AS first_q,
  (SELECT max(q) FROM stat_message_quarters WHERE list_contains($projects, project)) AS last_q
