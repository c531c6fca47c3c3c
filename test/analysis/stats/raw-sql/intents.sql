-- intents (raw reference): the window's messages (by timestamp) per NLP class, with their mean confidence
-- (an exact decimal sum of the confidences, 18 decimals, over their count), most frequent first.
SELECT m.nlp_class, count(*) AS messages,
  sum(m.confidence::DECIMAL(38, 18))::DOUBLE / nullif(count(m.confidence), 0)::DOUBLE AS mean_confidence
FROM messages AS m
WHERE list_contains($projects, m.project) AND m."timestamp" >= $from AND m."timestamp" < $to
  AND ($all_channels OR list_contains($channels, m.channel_type))
  AND m.nlp_class IS NOT NULL
GROUP BY m.nlp_class
ORDER BY messages DESC, m.nlp_class
