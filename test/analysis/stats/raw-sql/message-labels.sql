-- message-labels: messages of the window (by timestamp) per message label (with its group), in total
-- (is_total; every label of the catalogue is listed, zeros included) and per local period ($unit in the
-- zone $tz). Names are the catalogue's, else those the message carried when it was synced.
WITH quarter_periods AS (
  -- zone offsets are whole quarter hours: the zone is applied per quarter hour of the window, not per row
  SELECT q, date_trunc($unit, timezone($tz, to_timestamp(q * 900))) AS period
  FROM range(epoch_ms($from) // 900000, epoch_ms($to - INTERVAL 1 MILLISECOND) // 900000 + 1) AS t(q)
),
label_quarters AS (
  -- counted per quarter hour first (an integer key), then summed per period; a label row carries its
  -- message's timestamp and channel (migration 005), so the 10M-row messages table is not read at all
  SELECT l.project, l.label_id, epoch_ms(l."timestamp") // 900000 AS q, count(*) AS messages
  FROM message_labels AS l
  WHERE list_contains($projects, l.project) AND l."timestamp" >= $from AND l."timestamp" < $to
    AND ($all_channels OR list_contains($channels, l.channel_type))
  GROUP BY l.project, l.label_id, q
),
counts AS (
  SELECT lq.project, lq.label_id, qp.period, GROUPING(qp.period) = 1 AS is_total, sum(lq.messages) AS messages
  FROM label_quarters AS lq
  JOIN quarter_periods AS qp ON qp.q = lq.q
  GROUP BY GROUPING SETS ((lq.project, lq.label_id), (lq.project, lq.label_id, qp.period))
),
synced_names AS (
  SELECT project, label_id, any_value(label_name) AS label_name, any_value(group_name) AS group_name
  FROM message_labels
  WHERE list_contains($projects, project)
  GROUP BY project, label_id
),
catalogue AS (
  SELECT project, label_id, name, group_name FROM message_label_catalogue
  WHERE list_contains($projects, project)
)
SELECT true AS is_total, NULL::TIMESTAMP AS local_start, NULL::TIMESTAMPTZ AS start,
  coalesce(k.project, c.project) AS project, coalesce(k.label_id, c.label_id) AS label_id,
  coalesce(k.name, n.label_name) AS label, coalesce(k.group_name, n.group_name) AS group_name,
  coalesce(c.messages, 0) AS count
FROM (SELECT * FROM counts WHERE is_total) AS c
FULL JOIN catalogue AS k ON k.project = c.project AND k.label_id = c.label_id
LEFT JOIN synced_names AS n ON n.project = c.project AND n.label_id = c.label_id
UNION ALL
SELECT false, c.period, timezone($tz, c.period), c.project, c.label_id, coalesce(k.name, n.label_name),
  coalesce(k.group_name, n.group_name), c.messages
FROM counts AS c
LEFT JOIN catalogue AS k ON k.project = c.project AND k.label_id = c.label_id
LEFT JOIN synced_names AS n ON n.project = c.project AND n.label_id = c.label_id
WHERE NOT c.is_total
ORDER BY is_total DESC, local_start NULLS FIRST, count DESC, project, label, label_id
