-- totals: the window's sessions (by start_time in [$from, $to)) with their clients (new: first seen, by join
-- date or first synced session, at or after $from), transfers (a `switch` reply at any time), messages per
-- session (question_count, empty sessions included) and durations. (The window's messages are counted per
-- channel by by-channel.sql.) The window's whole quarter hours come from the rollups (migration 024), the
-- partial ones at its edges from stat_sessions: counts and sums, the message counts' histogram, and where a
-- duration percentile's rank falls (its minute; then, among that minute's sessions, its second; the exact value
-- is read from that second's sessions).
-- Percentiles interpolate as quantile_cont: lo * (1 - d) + hi * d, d = rn - floor(rn), rn = (n - 1) * p. A client is
-- counted at its first session of the window (no earlier one since $from by the pointer of the selection:
-- any channel, its one channel, or for several channels a distinct count).
WITH edge_sessions AS (
  SELECT message_count, transferred, duration_ms FROM stat_sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $head_to
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT message_count, transferred, duration_ms FROM stat_sessions
  WHERE list_contains($projects, project) AND start_time >= $tail_from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
),
session_groups AS (
  SELECT message_count, transferred, sessions, durations, duration_ms_sum FROM stat_session_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT message_count, transferred, 1, CASE WHEN duration_ms IS NULL THEN 0 ELSE 1 END, duration_ms::HUGEINT
  FROM edge_sessions
),
minute_groups AS (
  SELECT duration_minute, sessions FROM stat_duration_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT duration_ms // 60000, 1 FROM edge_sessions WHERE duration_ms IS NOT NULL
),
figures AS (
  SELECT coalesce(sum(sessions), 0)::BIGINT AS sessions,
    coalesce(sum(sessions) FILTER (WHERE message_count > 0), 0)::BIGINT AS non_empty_sessions,
    coalesce(sum(sessions) FILTER (WHERE transferred), 0)::BIGINT AS transferred_sessions,
    sum(message_count::HUGEINT * sessions)::DOUBLE / nullif(sum(sessions), 0)::DOUBLE AS messages_per_session_mean,
    coalesce(sum(durations), 0)::BIGINT AS durations,
    sum(duration_ms_sum)::DOUBLE / nullif(sum(durations), 0)::DOUBLE AS duration_ms_mean
  FROM session_groups
),
percentiles AS (
  SELECT unnest([1, 2, 3]) AS i, unnest([0.5, 0.9, 0.99]::DOUBLE[]) AS p
),
message_histogram AS (
  SELECT message_count AS v, n, sum(n) OVER (ORDER BY message_count) - n AS before
  FROM (SELECT message_count, sum(sessions) AS n FROM session_groups GROUP BY message_count)
),
message_ranks AS (
  SELECT i, (f.sessions - 1)::DOUBLE * p AS rn FROM percentiles, figures AS f WHERE f.sessions > 0
),
message_quantiles AS (
  SELECT list(lo.v::DOUBLE * (1 - (r.rn - floor(r.rn))) + hi.v::DOUBLE * (r.rn - floor(r.rn)) ORDER BY r.i) AS quantiles
  FROM message_ranks AS r
  JOIN message_histogram AS lo ON floor(r.rn) >= lo.before AND floor(r.rn) < lo.before + lo.n
  JOIN message_histogram AS hi ON ceil(r.rn) >= hi.before AND ceil(r.rn) < hi.before + hi.n
),
minute_histogram AS (
  SELECT duration_minute, n, sum(n) OVER (ORDER BY duration_minute) - n AS before
  FROM (SELECT duration_minute, sum(sessions) AS n FROM minute_groups GROUP BY duration_minute)
),
duration_ranks AS (
  -- each rank with its minute and its place among that minute's durations
  SELECT r.i, r.rn, r.rank, m.duration_minute, r.rank - m.before AS place
  FROM (
    SELECT DISTINCT i, rn, unnest([floor(rn), ceil(rn)])::BIGINT AS rank
    FROM (SELECT i, (f.durations - 1)::DOUBLE * p AS rn FROM percentiles, figures AS f WHERE f.durations > 0)
  ) AS r
  JOIN minute_histogram AS m ON r.rank >= m.before AND r.rank < m.before + m.n
),
minute_rows AS MATERIALIZED (
  -- the window's durations of the minutes where a rank falls (one scan)
  SELECT duration_ms // 60000 AS duration_minute, duration_ms
  FROM stat_sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
    AND duration_ms IS NOT NULL AND duration_ms // 60000 IN (SELECT duration_minute FROM duration_ranks)
),
second_histogram AS (
  -- those minutes' sessions per whole second, so that only the seconds where a rank falls are sorted
  SELECT duration_minute, duration_ms // 1000 AS duration_second, count(*) AS n,
    sum(count(*)) OVER (PARTITION BY duration_minute ORDER BY duration_ms // 1000) - count(*) AS before
  FROM minute_rows
  GROUP BY duration_minute, duration_second
),
second_ranks AS (
  SELECT r.i, r.rn, r.rank, h.duration_second, r.place - h.before AS place
  FROM duration_ranks AS r
  JOIN second_histogram AS h
    ON h.duration_minute = r.duration_minute AND r.place >= h.before AND r.place < h.before + h.n
),
second_values AS (
  SELECT duration_ms // 1000 AS duration_second, duration_ms,
    row_number() OVER (PARTITION BY duration_ms // 1000 ORDER BY duration_ms) - 1 AS place
  FROM minute_rows
  WHERE duration_ms // 1000 IN (SELECT duration_second FROM second_ranks)
),
duration_values AS (
  SELECT r.i, r.rn, r.rank, v.duration_ms
  FROM second_ranks AS r
  JOIN second_values AS v ON v.duration_second = r.duration_second AND v.place = r.place
),
duration_quantiles AS (
  SELECT list(lo.duration_ms::DOUBLE * (1 - (lo.rn - floor(lo.rn))) + hi.duration_ms::DOUBLE * (lo.rn - floor(lo.rn))
    ORDER BY lo.i) AS quantiles
  FROM duration_values AS lo
  JOIN duration_values AS hi ON hi.i = lo.i AND hi.rank = ceil(lo.rn)
  WHERE lo.rank = floor(lo.rn)
),
several_channels AS (
  -- for several --channel values the pointers cannot tell a client's first session among them: a distinct
  -- count (read only then)
  SELECT count(DISTINCT (project, client_id)) FILTER (WHERE client_id IS NOT NULL) AS unique_clients,
    count(DISTINCT (project, client_id)) FILTER (WHERE client_id IS NOT NULL AND client_first_seen < $from)
      AS returning_clients
  FROM stat_sessions
  WHERE $several_channels AND list_contains($projects, project) AND start_time >= $from AND start_time < $to
    AND list_contains($channels, channel_type)
),
clients AS (
  SELECT
    CASE WHEN $several_channels THEN (SELECT unique_clients FROM several_channels)
      ELSE count(*) FILTER (WHERE client_first_seen IS NOT NULL AND coalesce(prev < $from, true)) END AS unique_clients,
    CASE WHEN $several_channels THEN (SELECT returning_clients FROM several_channels)
      ELSE count(*) FILTER (WHERE coalesce(prev < $from, true) AND client_first_seen < $from) END AS returning_clients
  FROM (
    -- the columns the pointers need, no text
    SELECT client_first_seen, CASE WHEN $all_channels THEN prev_start_any ELSE prev_start_channel END AS prev
    FROM stat_sessions
    WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
      AND ($all_channels OR list_contains($channels, channel_type))
  )
)
SELECT f.sessions, f.non_empty_sessions, f.transferred_sessions,
  f.messages_per_session_mean, (SELECT quantiles FROM message_quantiles) AS messages_per_session_quantiles,
  f.duration_ms_mean, (SELECT quantiles FROM duration_quantiles) AS duration_ms_quantiles,
  c.unique_clients, c.returning_clients
FROM figures AS f, clients AS c
