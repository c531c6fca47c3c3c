-- by-channel: per channel, the window's sessions (by start_time), non-empty sessions, unique clients and
-- sessions transferred to an agent, and messages (by timestamp, per their own messages.channel_type). The
-- window's whole quarter hours come from the rollups (stat_session_quarters, stat_message_quarters), the
-- partial ones at its edges from stat_sessions and messages; a client is counted at its first session of the
-- window in the channel (stat_sessions' pointers). channel is NULL for messages that carry none (loaded
-- before migration 004 while their session is not in the warehouse).
WITH session_groups AS (
  SELECT channel_type AS channel, message_count, transferred, sessions FROM stat_session_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT channel_type, message_count, transferred, 1 FROM stat_sessions
  WHERE list_contains($projects, project) AND ($all_channels OR list_contains($channels, channel_type))
    AND start_time >= $from AND start_time < $head_to
  UNION ALL
  SELECT channel_type, message_count, transferred, 1 FROM stat_sessions
  WHERE list_contains($projects, project) AND ($all_channels OR list_contains($channels, channel_type))
    AND start_time >= $tail_from AND start_time < $to
),
session_counts AS (
  SELECT channel, sum(sessions)::BIGINT AS sessions,
    coalesce(sum(sessions) FILTER (WHERE message_count > 0), 0)::BIGINT AS non_empty_sessions,
    coalesce(sum(sessions) FILTER (WHERE transferred), 0)::BIGINT AS transferred_sessions
  FROM session_groups
  GROUP BY channel
),
client_counts AS (
  -- a client is counted at its first session of the window in the channel; the sessions without a client id
  -- of a project are one client (their pointers chain them), as count(DISTINCT (project, client_id)) counts
  SELECT channel_type AS channel, count(*) FILTER (WHERE coalesce(prev_start_channel < $from, true)) AS unique_clients
  FROM stat_sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
  GROUP BY channel_type
),
window_sessions AS (
  SELECT s.channel, s.sessions, s.non_empty_sessions, c.unique_clients, s.transferred_sessions
  FROM session_counts AS s
  JOIN client_counts AS c ON c.channel IS NOT DISTINCT FROM s.channel
),
window_messages AS (
  SELECT channel, sum(messages) AS messages
  FROM (
    SELECT channel_type AS channel, messages FROM stat_message_quarters
    WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    UNION ALL
    SELECT channel_type, 1 FROM messages
    WHERE list_contains($projects, project) AND "timestamp" >= $from AND "timestamp" < $head_to
    UNION ALL
    SELECT channel_type, 1 FROM messages
    WHERE list_contains($projects, project) AND "timestamp" >= $tail_from AND "timestamp" < $to
  )
  WHERE $all_channels OR list_contains($channels, channel)
  GROUP BY channel
)
SELECT
  coalesce(ws.channel, wm.channel) AS channel,
  coalesce(ws.sessions, 0) AS sessions,
  coalesce(ws.non_empty_sessions, 0) AS non_empty_sessions,
  coalesce(wm.messages, 0)::BIGINT AS messages,
  coalesce(ws.unique_clients, 0) AS unique_clients,
  coalesce(ws.transferred_sessions, 0) AS transferred_sessions
FROM window_sessions AS ws
FULL JOIN window_messages AS wm ON wm.channel IS NOT DISTINCT FROM ws.channel
ORDER BY channel NULLS LAST
