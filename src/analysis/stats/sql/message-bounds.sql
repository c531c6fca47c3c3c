-- message-bounds: the first and last message of the selected projects in their first and last quarter hours
-- (window-bounds.sql): two reads of a quarter hour of messages each.
SELECT
  (SELECT min("timestamp") FROM messages
    WHERE list_contains($projects, project) AND "timestamp" >= $first_q_from AND "timestamp" < $first_q_to) AS first_message,
  (SELECT max("timestamp") FROM messages
    WHERE list_contains($projects, project) AND "timestamp" >= $last_q_from AND "timestamp" < $last_q_to) AS last_message
