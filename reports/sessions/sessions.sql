-- sessions: every session of the selected projects that started in [$from, $to), one row each, in start
-- order, with its labels (comma-separated), whether it was handed to an agent (a `switch` reply), and its
-- sessionData as one JSON object (the report spreads the keys into columns).
WITH picked AS (
  SELECT * FROM sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
),
labels AS (
  SELECT l.project, l.session_id,
    string_agg(coalesce(l.label_name, '#' || l.label_id), ', ' ORDER BY l.label_name) AS labels
  FROM session_labels AS l
  SEMI JOIN picked AS p ON p.project = l.project AND p.session_id = l.session_id
  GROUP BY ALL
),
data AS (
  SELECT d.project, d.session_id, json_group_object(d.key, d.value)::VARCHAR AS session_data
  FROM session_data AS d
  SEMI JOIN picked AS p ON p.project = d.project AND p.session_id = d.session_id
  GROUP BY ALL
),
transfers AS (
  SELECT DISTINCT m.project, m.session_id FROM messages AS m
  SEMI JOIN picked AS p ON p.project = m.project AND p.session_id = m.session_id
  WHERE m.is_transfer
)
SELECT
  s.start_time, s.project, s.channel_type AS channel, s.client_id,
  nullif(trim(concat_ws(' ', s.client_first_name, s.client_last_name)), '') AS client_name,
  s.client_username, s.question_count, s.duration_ms,
  t.session_id IS NOT NULL AS transferred, s.is_livechat, s.session_result,
  s.first_question, s.last_question, l.labels, s.session_id, s.bot_id, d.session_data
FROM picked AS s
LEFT JOIN labels AS l ON l.project = s.project AND l.session_id = s.session_id
LEFT JOIN data AS d ON d.project = s.project AND d.session_id = s.session_id
LEFT JOIN transfers AS t ON t.project = s.project AND t.session_id = s.session_id
ORDER BY s.start_time, s.project, s.session_id
