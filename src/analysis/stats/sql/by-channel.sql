-- by-channel: per channel, the window's sessions (by start_time), non-empty sessions, unique clients and
-- sessions transferred to an agent (stat_sessions: a client counted at its first session of the window in
-- the channel), and messages (by timestamp, per their own messages.channel_type): the window's whole quarter
-- hours from stat_message_quarters, the partial ones at its edges from messages. channel is NULL for
-- messages that carry none (loaded before migration 004 while their session is not in the warehouse).
WITH transfers AS (
  -- a session's messages are never older than its start: transfers before $from belong to earlier sessions
  SELECT project, session_id FROM stat_transfers
  WHERE list_contains($projects, project) AND q >= $q_from
),
window_sessions AS (
  SELECT s.channel_type AS channel,
    count(*) AS sessions,
    count(*) FILTER (WHERE s.message_count > 0) AS non_empty_sessions,
    -- a client without an id counts once per project, as count(DISTINCT (project, client_id)) does
    count(*) FILTER (WHERE s.client_id IS NOT NULL AND coalesce(s.prev_start_channel < $from, true))
      + count(DISTINCT s.project) FILTER (WHERE s.client_id IS NULL) AS unique_clients,
    count(*) FILTER (WHERE (s.project, s.session_id) IN (SELECT (project, session_id) FROM transfers)) AS transferred_sessions
  FROM stat_sessions AS s
  WHERE list_contains($projects, s.project) AND s.start_time >= $from AND s.start_time < $to
    AND ($all_channels OR list_contains($channels, s.channel_type))
  GROUP BY s.channel_type
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
