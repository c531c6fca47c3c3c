// Views over the replicated tables that give BI tools the figures of `stats --json`, per project, UTC day and
// channel (a BI tool sums them over its own range; unique clients are per day, as they cannot be summed):
//   stats_daily_sessions      sessions (by start), unique clients, transferred sessions; per channel
//   stats_daily_clients       unique clients per day over all channels
//   stats_daily_messages      messages (by time) per channel
//   stats_daily_delivery      messages by latest delivery status per channel (telegram, viber, vk from the
//                             Reporter; chatapi from the Chat API's bot and agent messages)
//   stats_daily_session_labels, stats_daily_message_labels   labelled sessions / messages per label
// Definitions are those of src/analysis/stats/sql/ (docs/statistics.md); every view reads the tables FINAL (one row
// per key). Written in the SQL of ClickHouse 18.16 (Debian's), which newer releases accept too.
export function statsViewsSql(db: string): string[] {
  const view = (name: string, select: string) => [
    `DROP TABLE IF EXISTS ${db}.${name}`,
    `CREATE VIEW ${db}.${name} AS ${select}`,
  ];
  return [
    ...view(
      'stats_daily_sessions',
      `SELECT project, _date AS day, channel_type AS channel, count() AS sessions, uniqExact(client_id) AS clients,
         countIf((project, session_id) IN (SELECT project, session_id FROM ${db}.messages FINAL WHERE is_transfer = 1)) AS transferred
       FROM ${db}.sessions FINAL GROUP BY project, day, channel`,
    ),
    ...view(
      'stats_daily_clients',
      `SELECT project, _date AS day, uniqExact(client_id) AS clients FROM ${db}.sessions FINAL GROUP BY project, day`,
    ),
    ...view(
      'stats_daily_messages',
      `SELECT project, _date AS day, channel_type AS channel, count() AS messages
       FROM ${db}.messages FINAL GROUP BY project, day, channel`,
    ),
    ...view(
      'stats_daily_delivery',
      `SELECT project, _date AS day, channel_type AS channel, count() AS messages, count(status) AS with_status,
         countIf(status = 'SENT') AS sent, countIf(status = 'DELIVERED') AS delivered, countIf(status = 'READ') AS read,
         countIf(status = 'NOT_SENT') AS not_sent, countIf(status = 'NOT_DELIVERED') AS not_delivered
       FROM ${db}.messages FINAL WHERE channel_type IN ('telegram', 'viber', 'vk') GROUP BY project, day, channel
       UNION ALL
       SELECT project, _date AS day, 'chatapi' AS channel, count() AS messages, count(status) AS with_status,
         countIf(status = 'SENT') AS sent, countIf(status = 'DELIVERED') AS delivered, countIf(status = 'READ') AS read,
         countIf(status = 'NOT_SENT') AS not_sent, countIf(status = 'NOT_DELIVERED') AS not_delivered
       FROM ${db}.chatapi_messages FINAL WHERE type != 'client' GROUP BY project, day`,
    ),
    ...view(
      'stats_daily_session_labels',
      `SELECT project, day, label_id, any(label_name) AS label, count() AS sessions
       FROM (SELECT project, session_id, label_id, label_name FROM ${db}.session_labels FINAL)
       ALL INNER JOIN (SELECT project, session_id, _date AS day FROM ${db}.sessions FINAL) USING (project, session_id)
       GROUP BY project, day, label_id`,
    ),
    ...view(
      'stats_daily_message_labels',
      `SELECT project, _date AS day, label_id, any(group_name) AS label_group, any(label_name) AS label, count() AS messages
       FROM ${db}.message_labels FINAL GROUP BY project, day, label_id`,
    ),
  ];
}
