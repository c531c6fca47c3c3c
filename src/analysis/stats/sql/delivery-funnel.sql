-- delivery-funnel: per status channel, the window's messages (by timestamp) by their latest delivery status,
-- obeying the channel rules (SENT only on telegram and vk, READ only on viber and vk; other channels have no
-- status): a status the rules forbid is NULL, and messages carrying one are counted in `unexpected`.
-- other: messages whose latest status is none of the five documented ones (a status the platform added later,
-- which the sync keeps as given).
-- No time to READ: neither the Reporter API nor the Chat API gives the time of a status change, and the
-- times the syncs saw a status measure the sync interval, not the reader (docs/statistics.md).
-- A message's channel is its own messages.channel_type: no join.
-- chatapi: the bot and agent messages of the Chat API channels' history (chatapi_messages, by message_time),
-- whose statuses are SENT, DELIVERED, READ and NOT_SENT; its row is there when the window has any.
WITH rules (channel, sent_allowed, read_allowed) AS (
  VALUES ('telegram', true, false), ('viber', false, true), ('vk', true, true), ('chatapi', true, true)
),
window_statuses AS (
  -- the window's messages by channel and latest status: its whole quarter hours from stat_message_quarters,
  -- the partial ones at its edges from messages
  SELECT channel_type AS channel, status, messages FROM stat_message_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND channel_type IN ('telegram', 'viber', 'vk')
  UNION ALL
  SELECT channel_type, status, 1 FROM messages
  WHERE list_contains($projects, project) AND "timestamp" >= $from AND "timestamp" < $head_to
    AND channel_type IN ('telegram', 'viber', 'vk')
  UNION ALL
  SELECT channel_type, status, 1 FROM messages
  WHERE list_contains($projects, project) AND "timestamp" >= $tail_from AND "timestamp" < $to
    AND channel_type IN ('telegram', 'viber', 'vk')
),
status_counts AS (
  SELECT m.channel,
    sum(m.messages)::BIGINT AS messages,
    coalesce(sum(m.messages) FILTER (WHERE m.status IS NOT NULL), 0)::BIGINT AS with_status,
    coalesce(sum(m.messages) FILTER (WHERE m.status = 'SENT'), 0)::BIGINT AS sent,
    coalesce(sum(m.messages) FILTER (WHERE m.status = 'DELIVERED'), 0)::BIGINT AS delivered,
    coalesce(sum(m.messages) FILTER (WHERE m.status = 'READ'), 0)::BIGINT AS read,
    coalesce(sum(m.messages) FILTER (WHERE m.status = 'NOT_SENT'), 0)::BIGINT AS not_sent,
    coalesce(sum(m.messages) FILTER (WHERE m.status = 'NOT_DELIVERED'), 0)::BIGINT AS not_delivered,
    coalesce(sum(m.messages) FILTER (WHERE m.status NOT IN ('SENT', 'DELIVERED', 'READ', 'NOT_SENT', 'NOT_DELIVERED')), 0)::BIGINT AS other
  FROM window_statuses AS m
  WHERE $all_channels OR list_contains($channels, m.channel)
  GROUP BY m.channel
  UNION ALL
  SELECT 'chatapi' AS channel,
    count(*) AS messages,
    count(c.status) AS with_status,
    count(*) FILTER (WHERE c.status = 'SENT') AS sent,
    count(*) FILTER (WHERE c.status = 'DELIVERED') AS delivered,
    count(*) FILTER (WHERE c.status = 'READ') AS read,
    count(*) FILTER (WHERE c.status = 'NOT_SENT') AS not_sent,
    count(*) FILTER (WHERE c.status = 'NOT_DELIVERED') AS not_delivered,
    count(*) FILTER (WHERE c.status NOT IN ('SENT', 'DELIVERED', 'READ', 'NOT_SENT', 'NOT_DELIVERED')) AS other
  FROM chatapi_messages AS c
  WHERE list_contains($projects, c.project) AND c.message_time >= $from AND c.message_time < $to
    AND c.type IN ('bot', 'operator')
    AND ($all_channels OR list_contains($channels, 'chatapi'))
  HAVING count(*) > 0
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
  coalesce(c.other, 0) AS other,
  coalesce(CASE WHEN r.sent_allowed THEN 0 ELSE c.sent END, 0)
    + coalesce(CASE WHEN r.read_allowed THEN 0 ELSE c.read END, 0) AS unexpected
FROM rules AS r
LEFT JOIN status_counts AS c ON c.channel = r.channel
WHERE ($all_channels OR list_contains($channels, r.channel))
  AND (r.channel <> 'chatapi' OR c.messages > 0)
ORDER BY r.channel
