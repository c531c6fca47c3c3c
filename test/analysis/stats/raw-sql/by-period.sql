-- by-period: per local period ($unit: hour, day, week or month in the IANA zone $tz) and channel, the
-- sessions (by start_time), unique clients and transfers, and the messages (by timestamp; their channel is
-- messages.channel_type) of the window.
-- Rows with is_total hold all channels and cover every period of the window, zeros included.
-- local_start is the period's start as a local (zone-less) time; start the same instant as TIMESTAMPTZ.
-- Zone offsets are whole quarter hours, so the zone is applied to each quarter hour of the window
-- (quarter_periods) rather than to every row: rows find their period by an integer key.
WITH quarter_periods AS (
  SELECT q, date_trunc($unit, timezone($tz, to_timestamp(q * 900))) AS period
  FROM range(epoch_ms($from) // 900000, epoch_ms($to - INTERVAL 1 MILLISECOND) // 900000 + 1) AS t(q)
),
transfers AS (
  -- a session's messages are never older than its start: transfers before $from belong to earlier sessions
  SELECT DISTINCT project, session_id FROM messages
  WHERE is_transfer AND list_contains($projects, project) AND "timestamp" >= $from
),
window_sessions AS (
  -- transferred through IN (a mark join): the hash table holds the few transferred sessions, not the window's
  SELECT qp.period, s.channel_type AS channel, s.project, s.client_id,
    (s.project, s.session_id) IN (SELECT (project, session_id) FROM transfers) AS transferred
  FROM sessions AS s
  JOIN quarter_periods AS qp ON qp.q = epoch_ms(s.start_time) // 900000
  WHERE list_contains($projects, s.project) AND s.start_time >= $from AND s.start_time < $to
    AND ($all_channels OR list_contains($channels, s.channel_type))
),
message_quarters AS (
  -- counted per quarter hour first (an integer key), then summed per period
  SELECT epoch_ms(m."timestamp") // 900000 AS q, m.channel_type AS channel, count(*) AS messages
  FROM messages AS m
  WHERE list_contains($projects, m.project) AND m."timestamp" >= $from AND m."timestamp" < $to
    AND ($all_channels OR list_contains($channels, m.channel_type))
  GROUP BY q, m.channel_type
),
client_counts AS (
  -- one row per period, channel and client first (a plain GROUP BY), then clients are counted as rows:
  -- much cheaper than count(DISTINCT ...) under GROUPING SETS
  SELECT period, channel, project, client_id, count(*) AS sessions,
    count(*) FILTER (WHERE transferred) AS transferred_sessions
  FROM window_sessions
  GROUP BY period, channel, project, client_id
),
session_counts AS (
  SELECT period, channel, false AS is_total, sum(sessions) AS sessions, count(*) AS unique_clients,
    sum(transferred_sessions) AS transferred_sessions
  FROM client_counts
  GROUP BY period, channel
  UNION ALL
  SELECT period, NULL, true, sum(sessions), count(DISTINCT (project, client_id)), sum(transferred_sessions)
  FROM client_counts
  GROUP BY period
),
message_counts AS (
  SELECT qp.period, mq.channel, GROUPING(mq.channel) = 1 AS is_total, sum(mq.messages) AS messages
  FROM message_quarters AS mq
  JOIN quarter_periods AS qp ON qp.q = mq.q
  GROUP BY GROUPING SETS ((qp.period, mq.channel), (qp.period))
),
period_keys AS (
  SELECT DISTINCT period, NULL::VARCHAR AS channel, true AS is_total FROM quarter_periods
  UNION
  SELECT period, channel, is_total FROM session_counts
  UNION
  SELECT period, channel, is_total FROM message_counts
)
SELECT
  k.period AS local_start,
  timezone($tz, k.period) AS start,
  k.is_total,
  k.channel,
  coalesce(sc.sessions, 0) AS sessions,
  coalesce(mc.messages, 0) AS messages,
  coalesce(sc.unique_clients, 0) AS unique_clients,
  coalesce(sc.transferred_sessions, 0) AS transferred_sessions
FROM period_keys AS k
LEFT JOIN session_counts AS sc
  ON sc.period = k.period AND sc.is_total = k.is_total AND sc.channel IS NOT DISTINCT FROM k.channel
LEFT JOIN message_counts AS mc
  ON mc.period = k.period AND mc.is_total = k.is_total AND mc.channel IS NOT DISTINCT FROM k.channel
ORDER BY k.period, k.is_total DESC, k.channel NULLS LAST
