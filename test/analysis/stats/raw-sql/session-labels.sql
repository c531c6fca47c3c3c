-- session-labels: sessions of the window (by start_time) per session label, in total (is_total; every label
-- of the catalogue is listed, zeros included) and per local period ($unit in the zone $tz). The label's
-- name is the catalogue's, else the name the session carried when it was synced.
WITH quarter_periods AS (
  -- zone offsets are whole quarter hours: the zone is applied per quarter hour of the window, not per row
  SELECT q, date_trunc($unit, timezone($tz, to_timestamp(q * 900))) AS period
  FROM range(epoch_ms($from) // 900000, epoch_ms($to - INTERVAL 1 MILLISECOND) // 900000 + 1) AS t(q)
),
window_sessions AS (
  SELECT project, session_id, start_time FROM sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
),
labelled AS (
  SELECT l.project, l.label_id, l.label_name,
    qp.period
  FROM session_labels AS l
  JOIN window_sessions AS s ON s.project = l.project AND s.session_id = l.session_id
  JOIN quarter_periods AS qp ON qp.q = epoch_ms(s.start_time) // 900000
),
counts AS (
  SELECT project, label_id, period, GROUPING(period) = 1 AS is_total,
    any_value(label_name) AS label_name, count(*) AS sessions
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
