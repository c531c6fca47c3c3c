-- delivery-funnel: per status channel, the window's messages (by timestamp) by their latest delivery status,
-- obeying the channel rules (SENT only on telegram and vk, READ only on viber and vk; other channels have no
-- status): a status the rules forbid is NULL, and messages carrying one are counted in `unexpected`.
-- read_ms_median: median time from the first status row of a READ message in message_status_history
-- (when a sync first saw it in any status) to its READ row. A message of the window was first seen at or
-- after its timestamp, so history rows before $from are skipped. A message's channel is its own
-- messages.channel_type (no join to sessions).
WITH rules (channel, sent_allowed, read_allowed) AS (
  VALUES ('telegram', true, false), ('viber', false, true), ('vk', true, true)
),
status_counts AS (
  SELECT channel,
    sum(n) AS messages,
    sum(n) FILTER (WHERE status IS NOT NULL) AS with_status,
    sum(n) FILTER (WHERE status = 'SENT') AS sent,
    sum(n) FILTER (WHERE status = 'DELIVERED') AS delivered,
    sum(n) FILTER (WHERE status = 'READ') AS read,
    sum(n) FILTER (WHERE status = 'NOT_SENT') AS not_sent,
    sum(n) FILTER (WHERE status = 'NOT_DELIVERED') AS not_delivered
  FROM (
    SELECT m.channel_type AS channel, m.status, count(*) AS n
    FROM messages AS m
    WHERE list_contains($projects, m.project) AND m."timestamp" >= $from AND m."timestamp" < $to
      AND m.channel_type IN ('telegram', 'viber', 'vk')
      AND ($all_channels OR list_contains($channels, m.channel_type))
    GROUP BY m.channel_type, m.status
  )
  GROUP BY channel
),
read_messages AS (
  -- the READ messages of the window (the join's build side), then their history rows; not MATERIALIZED:
  -- holding this set as well as the join's hash table ran out of memory at 256 MB on a month of 1M READs
  SELECT m.project, m.question_id, m.channel_type AS channel
  FROM messages AS m
  WHERE list_contains($projects, m.project) AND m."timestamp" >= $from AND m."timestamp" < $to
    AND m.status = 'READ' AND m.channel_type IN ('viber', 'vk')
    AND ($all_channels OR list_contains($channels, m.channel_type))
),
read_delays AS (
  SELECT r.channel,
    epoch_ms(max(h.first_seen_at) FILTER (WHERE h.status = 'READ')) - epoch_ms(min(h.first_seen_at)) AS read_ms
  FROM read_messages AS r
  JOIN message_status_history AS h ON h.project = r.project AND h.question_id = r.question_id
  WHERE list_contains($projects, h.project) AND h.first_seen_at >= $from
  GROUP BY r.project, r.question_id, r.channel
  HAVING count(*) FILTER (WHERE h.status = 'READ') > 0
),
read_medians AS (
  SELECT channel, median(read_ms) AS read_ms_median, count(*) AS read_timed
  FROM read_delays
  GROUP BY channel
)
SELECT
  r.channel,
  coalesce(c.messages, 0) AS messages,
  coalesce(c.with_status, 0) AS with_status,
  CASE WHEN r.sent_allowed THEN coalesce(c.sent, 0) END AS sent,
  coalesce(c.delivered, 0) AS delivered,
  CASE WHEN r.read_allowed THEN coalesce(c.read, 0) END AS read,
  coalesce(c.not_sent, 0) AS not_sent,
  coalesce(c.not_delivered, 0) AS not_delivered,
  coalesce(CASE WHEN r.sent_allowed THEN 0 ELSE c.sent END, 0)
    + coalesce(CASE WHEN r.read_allowed THEN 0 ELSE c.read END, 0) AS unexpected,
  CASE WHEN r.read_allowed THEN d.read_ms_median END AS read_ms_median,
  CASE WHEN r.read_allowed THEN coalesce(d.read_timed, 0) END AS read_timed
FROM rules AS r
LEFT JOIN status_counts AS c ON c.channel = r.channel
LEFT JOIN read_medians AS d ON d.channel = r.channel
WHERE $all_channels OR list_contains($channels, r.channel)
ORDER BY r.channel
