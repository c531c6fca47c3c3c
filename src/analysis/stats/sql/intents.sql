-- intents: the window's messages (by timestamp) per NLP class, with their mean confidence, most frequent
-- first. Messages without a class (events, agent dialogs) are not requests the classifier saw. --channel
-- applies to the message's own channel_type. The window's whole quarter hours come from
-- stat_message_quarters, the partial ones at its edges from messages. The mean is an exact decimal sum of
-- the confidences (18 decimals) over their count, so it does not depend on the order rows are summed in.
WITH classes AS (
  SELECT nlp_class, messages, confidences, confidence_sum FROM stat_message_quarters
  WHERE list_contains($projects, project) AND q >= $q_lo AND q < $q_hi
    AND ($all_channels OR list_contains($channels, channel_type)) AND nlp_class IS NOT NULL
  UNION ALL
  SELECT nlp_class, 1, CASE WHEN confidence IS NULL THEN 0 ELSE 1 END, confidence::DECIMAL(38, 18) FROM messages
  WHERE list_contains($projects, project) AND "timestamp" >= $from AND "timestamp" < $head_to
    AND ($all_channels OR list_contains($channels, channel_type)) AND nlp_class IS NOT NULL
  UNION ALL
  SELECT nlp_class, 1, CASE WHEN confidence IS NULL THEN 0 ELSE 1 END, confidence::DECIMAL(38, 18) FROM messages
  WHERE list_contains($projects, project) AND "timestamp" >= $tail_from AND "timestamp" < $to
    AND ($all_channels OR list_contains($channels, channel_type)) AND nlp_class IS NOT NULL
)
SELECT nlp_class, sum(messages)::BIGINT AS messages,
  sum(confidence_sum)::DOUBLE / nullif(sum(confidences), 0)::DOUBLE AS mean_confidence
FROM classes
GROUP BY nlp_class
ORDER BY messages DESC, nlp_class
