-- session-labels: sessions of the window (by start_time) per session label, in total (is_total; every label
-- of the catalogue is listed, zeros included) and per local period ($unit in the zone $tz). The label's
-- name is the catalogue's, else the name the session carried when it was synced. The window's whole quarter
-- hours come from stat_session_label_quarters (migration 024), the partial ones at its edges from
-- stat_session_labels, whose rows carry their session's start and channel: no join.
WITH quarter_periods AS (
  -- zone offsets are whole quarter hours: the zone is applied per quarter hour of the window, not per row
  SELECT q, date_trunc($unit, timezone($tz, to_timestamp(q * 900))) AS period
  FROM range(epoch_ms($from) // 900000, epoch_ms($to - INTERVAL 1 MILLISECOND) // 900000 + 1) AS t(q)
),
label_quarters AS (
  -- the whole quarters from stat_session_label_quarters, the partial ones at the edges from stat_session_labels
  SELECT project, label_id, label_name, q, sessions FROM stat_session_label_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT project, label_id, label_name, epoch_ms(start_time) // 900000, 1 FROM stat_session_labels
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $head_to
    AND ($all_channels OR list_contains($channels, channel_type))
  UNION ALL
  SELECT project, label_id, label_name, epoch_ms(start_time) // 900000, 1 FROM stat_session_labels
  WHERE list_contains($projects, project) AND start_time >= $tail_from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
),
labelled AS (
  SELECT l.project, l.label_id, l.label_name, qp.period, l.sessions
  FROM label_quarters AS l
  JOIN quarter_periods AS qp ON qp.q = l.q
),
counts AS (
  SELECT project, label_id, period, GROUPING(period) = 1 AS is_total,
    any_value(label_name) AS label_name, sum(sessions)::BIGINT AS sessions
  FROM labelled
  GROUP BY GROUPING SETS ((project, label_id), (project, label_id, period))
),
catalogue AS (
  SELECT project, label_id, name FROM session_label_catalogue WHERE list_contains($projects, project)
)
SELECT true AS is_total, NULL::TIMESTAMP AS local_start, NULL::TIMESTAMPTZ AS start,
  coalesce(k.project, c.project) AS project, coalesce(k.label_id, c.label_id) AS label_id,
  coalesce(k.name, c.label_name) AS label, coalesce(c.sessions, 0) AS count
FROM (SELECT * FROM counts WHERE is_total) AS c
FULL JOIN catalogue AS k ON k.project = c.project AND k.label_id = c.label_id
UNION ALL
SELECT false, c.period, timezone($tz, c.period), c.project, c.label_id, coalesce(k.name, c.label_name),
  c.sessions
FROM counts AS c
LEFT JOIN catalogue AS k ON k.project = c.project AND k.label_id = c.label_id
WHERE NOT c.is_total
ORDER BY is_total DESC, local_start NULLS FIRST, count DESC, project, label, label_id
