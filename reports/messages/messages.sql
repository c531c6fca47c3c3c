-- messages: every message of the selected projects whose time is in [$from, $to), one row each, in time
-- order, with its session's channel and client and its message labels ("group / label", comma-separated),
-- in the sheet's column order (the ids last: left off paper).
-- The report runs it one slice at a time (about 20,000 rows each), so DuckDB's memory stays small. A label
-- row carries its message's timestamp (migration 005): the labels are found without reading messages twice.
SELECT
  m."timestamp", m.project, coalesce(s.channel_type, m.channel_type) AS channel, s.client_id,
  m.question, m.text_answer, m.nlp_class, m.nlp_state, m.event, m.confidence, m.status, m.operator_id,
  l.labels, m.comment, m.exception, m.is_livechat, m.is_transfer, m.processing_time,
  m.question_id, m.session_id
FROM messages AS m
LEFT JOIN sessions AS s ON s.project = m.project AND s.session_id = m.session_id
LEFT JOIN (
  SELECT l.project, l.question_id,
    string_agg(coalesce(l.group_name || ' / ', '') || coalesce(l.label_name, '#' || l.label_id), ', '
      ORDER BY l.group_name, l.label_name) AS labels
  FROM message_labels AS l
  WHERE list_contains($projects, l.project) AND l."timestamp" >= $from AND l."timestamp" < $to
  GROUP BY ALL
) AS l ON l.project = m.project AND l.question_id = m.question_id
WHERE list_contains($projects, m.project) AND m."timestamp" >= $from AND m."timestamp" < $to
ORDER BY m."timestamp", m.project, m.question_id
