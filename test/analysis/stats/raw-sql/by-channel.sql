-- by-channel: per channel, the window's sessions (by start_time), non-empty sessions, unique clients and
-- sessions transferred to an agent, and messages (by timestamp, per their own messages.channel_type, no
-- join to sessions). channel is NULL for messages that carry none (loaded before migration 004 while their
-- session is not in the warehouse).
WITH transfers AS (
  -- a session's messages are never older than its start: transfers before $from belong to earlier sessions
  SELECT DISTINCT project, session_id FROM messages
  WHERE is_transfer AND list_contains($projects, project) AND "timestamp" >= $from
),
window_sessions AS (
  SELECT s.channel_type AS channel,
    count(*) AS sessions,
    count(*) FILTER (WHERE coalesce(s.question_count, 0) > 0) AS non_empty_sessions,
    count(DISTINCT (s.project, s.client_id)) AS unique_clients,
    count(*) FILTER (WHERE (s.project, s.session_id) IN (SELECT (project, session_id) FROM transfers)) AS transferred_sessions
  FROM sessions AS s
  WHERE list_contains($projects, s.project) AND s.start_time >= $from AND s.start_time < $to
    AND ($all_channels OR list_contains($channels, s.channel_type))
  GROUP BY s.channel_type
),
window_messages AS (
  SELECT m.channel_type AS channel, count(*) AS messages
  FROM messages AS m
  WHERE list_contains($projects, m.project) AND m."timestamp" >= $from AND m."timestamp" < $to
    AND ($all_channels OR list_contains($channels, m.channel_type))
  GROUP BY m.channel_type
)
SELECT
  coalesce(ws.channel, wm.channel) AS channel,
  coalesce(ws.sessions, 0) AS sessions,
  coalesce(ws.non_empty_sessions, 0) AS non_empty_sessions,
  coalesce(wm.messages, 0) AS messages,
  coalesce(ws.unique_clients, 0) AS unique_clients,
  coalesce(ws.transferred_sessions, 0) AS transferred_sessions
FROM window_sessions AS ws
FULL JOIN window_messages AS wm ON wm.channel IS NOT DISTINCT FROM ws.channel
ORDER BY channel NULLS LAST
