-- first-questions: the $top most frequent first questions of the window's sessions (by start_time).
SELECT first_question AS question, count(*) AS sessions
FROM sessions
WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
  AND ($all_channels OR list_contains($channels, channel_type))
  AND first_question IS NOT NULL
GROUP BY first_question
ORDER BY sessions DESC, question
LIMIT $top
