-- 005_denormalised_stat_columns: columns the statistics read so that their queries scan one table each on a
-- warehouse of 10M messages (no joins of messages to message_status_history or to message_labels).
--  * messages.first_status_at / read_at: when a sync first saw the message in any delivery status and in READ
--    (the minimum first_seen_at of its message_status_history rows); set by every window commit from the
--    history, which stays the record of truth.
--  * message_labels."timestamp" / channel_type: the labelled message's own time and channel, written with the
--    label rows (a message's labels are always replaced together with the message).
ALTER TABLE messages ADD COLUMN first_status_at TIMESTAMPTZ;
ALTER TABLE messages ADD COLUMN read_at TIMESTAMPTZ;
ALTER TABLE message_labels ADD COLUMN "timestamp" TIMESTAMPTZ;
ALTER TABLE message_labels ADD COLUMN channel_type VARCHAR;

UPDATE messages AS m SET first_status_at = h.first_status_at, read_at = h.read_at
FROM (
  SELECT project, question_id, min(first_seen_at) AS first_status_at,
    min(first_seen_at) FILTER (WHERE status = 'READ') AS read_at
  FROM message_status_history
  GROUP BY project, question_id
) AS h
WHERE h.project = m.project AND h.question_id = m.question_id;

UPDATE message_labels AS l SET "timestamp" = m."timestamp", channel_type = m.channel_type
FROM messages AS m
WHERE m.project = l.project AND m.question_id = l.question_id;
