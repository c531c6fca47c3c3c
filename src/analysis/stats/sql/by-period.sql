-- by-period: per local period ($unit: hour, day, week or month in the IANA zone $tz) and channel, the
-- sessions (by start_time), unique clients and transfers, and the messages (by timestamp; their channel is
-- messages.channel_type) of the window.
-- Rows with is_total hold all channels and cover every period of the window, zeros included.
-- local_start is the period's start as a local (zone-less) time; start the same instant as TIMESTAMPTZ.
-- Zone offsets are whole quarter hours, so the zone is applied to each quarter hour of the window
-- (quarter_periods) rather than to every row: rows find their period by an integer key. Messages
-- and sessions come from the rollups (stat_message_quarters, stat_session_quarters) for the window's whole
-- quarters and from messages and stat_sessions for the partial ones at its edges; a client is counted at its
-- first session of the period in the window (stat_sessions: its previous session, in the channel or in any
-- channel, is before the period's first instant).
WITH quarters AS (
  SELECT q, date_trunc($unit, timezone($tz, to_timestamp(q * 900))) AS period
  FROM range(epoch_ms($from) // 900000, epoch_ms($to - INTERVAL 1 MILLISECOND) // 900000 + 1) AS t(q)
),
quarter_periods AS (
  -- a period's first instant in the window: its first quarter (a repeated autumn hour is one period), or $from
  SELECT q, period, greatest($from, to_timestamp(min(q) OVER (PARTITION BY period) * 900)) AS period_start
  FROM quarters
),
session_quarters AS (
  -- sessions and transfers per quarter hour and channel: the whole quarters from stat_session_quarters, the
  -- partial ones at the window's edges from stat_sessions
  SELECT q, channel_type AS channel, sessions, CASE WHEN transferred THEN sessions ELSE 0 END AS transferred
  FROM stat_session_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT epoch_ms(start_time) // 900000, channel_type, 1, transferred::INTEGER FROM stat_sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $head_to
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT epoch_ms(start_time) // 900000, channel_type, 1, transferred::INTEGER FROM stat_sessions
  WHERE list_contains($projects, project) AND start_time >= $tail_from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
),
window_clients AS (
  -- each session of the window: whether it is its client's first of the period (in its channel, and in the
  -- selection); the sessions without a client id of a project are one client (their pointers chain them)
  SELECT qp.period, s.channel_type AS channel,
    coalesce(s.prev_start_channel < qp.period_start, true) AS first_in_channel,
    coalesce(CASE WHEN $all_channels THEN s.prev_start_any ELSE s.prev_start_channel END < qp.period_start, true)
      AS first_in_selection
  FROM stat_sessions AS s
  JOIN quarter_periods AS qp ON qp.q = epoch_ms(s.start_time) // 900000
  WHERE list_contains($projects, s.project) AND s.start_time >= $from AND s.start_time < $to
    AND ($all_channels OR list_contains($channels, s.channel_type))
),
session_counts AS (
  SELECT qp.period, sq.channel, GROUPING(sq.channel) = 1 AS is_total, sum(sq.sessions)::BIGINT AS sessions,
    sum(sq.transferred)::BIGINT AS transferred_sessions
  FROM session_quarters AS sq
  JOIN quarter_periods AS qp ON qp.q = sq.q
  GROUP BY GROUPING SETS ((qp.period, sq.channel), (qp.period))
),
several_channels AS (
  -- for several --channel values the pointers cannot tell a client's first session among them: a distinct
  -- count (read only then)
  SELECT qp.period, count(DISTINCT (s.project, s.client_id)) AS unique_clients
  FROM stat_sessions AS s
  JOIN quarter_periods AS qp ON qp.q = epoch_ms(s.start_time) // 900000
  WHERE $several_channels AND list_contains($projects, s.project) AND s.start_time >= $from AND s.start_time < $to
    AND list_contains($channels, s.channel_type)
  GROUP BY qp.period
),
first_sessions AS (
  -- one pass: per period and channel, the clients' first sessions in the channel and in the selection; a
  -- period's total is the sum over its channels of the latter
  SELECT period, channel, count(*) FILTER (WHERE first_in_channel) AS in_channel,
    count(*) FILTER (WHERE first_in_selection) AS in_selection
  FROM window_clients
  GROUP BY period, channel
),
client_counts AS (
  SELECT period, channel, false AS is_total, in_channel AS unique_clients FROM first_sessions
  UNION ALL
  SELECT f.period, NULL, true,
    CASE WHEN $several_channels THEN coalesce(any_value(sc.unique_clients), 0) ELSE sum(f.in_selection) END
  FROM first_sessions AS f
  LEFT JOIN several_channels AS sc ON sc.period = f.period
  GROUP BY f.period
),
message_quarters AS (
  -- counted per quarter hour first (an integer key), then summed per period
  SELECT q, channel_type AS channel, sum(messages) AS messages FROM stat_message_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type))
  GROUP BY q, channel_type
  UNION ALL
  SELECT epoch_ms("timestamp") // 900000 AS q, channel_type, count(*) FROM messages
  WHERE list_contains($projects, project) AND "timestamp" >= $from AND "timestamp" < $head_to
    AND ($all_channels OR list_contains($channels, channel_type))
  GROUP BY q, channel_type
  UNION ALL
  SELECT epoch_ms("timestamp") // 900000 AS q, channel_type, count(*) FROM messages
  WHERE list_contains($projects, project) AND "timestamp" >= $tail_from AND "timestamp" < $to
    AND ($all_channels OR list_contains($channels, channel_type))
  GROUP BY q, channel_type
),
message_counts AS (
  SELECT qp.period, mq.channel, GROUPING(mq.channel) = 1 AS is_total, sum(mq.messages)::BIGINT AS messages
  FROM message_quarters AS mq
  JOIN quarter_periods AS qp ON qp.q = mq.q
  GROUP BY GROUPING SETS ((qp.period, mq.channel), (qp.period))
),
period_keys AS (
  SELECT DISTINCT period, NULL::VARCHAR AS channel, true AS is_total FROM quarter_periods
  UNION
  SELECT period, channel, is_total FROM session_counts
  UNION
  SELECT period, channel, is_total FROM client_counts
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
  coalesce(cc.unique_clients, 0) AS unique_clients,
  coalesce(sc.transferred_sessions, 0) AS transferred_sessions
FROM period_keys AS k
LEFT JOIN session_counts AS sc
  ON sc.period = k.period AND sc.is_total = k.is_total AND sc.channel IS NOT DISTINCT FROM k.channel
LEFT JOIN client_counts AS cc
  ON cc.period = k.period AND cc.is_total = k.is_total AND cc.channel IS NOT DISTINCT FROM k.channel
LEFT JOIN message_counts AS mc
  ON mc.period = k.period AND mc.is_total = k.is_total AND mc.channel IS NOT DISTINCT FROM k.channel
ORDER BY k.period, k.is_total DESC, k.channel NULLS LAST
