-- intents: the window's messages (by timestamp) per NLP class, with their mean confidence, most frequent
-- first. Messages without a class (events, agent dialogs) are not requests the classifier saw. --channel
-- applies to the message's own channel_type.
SELECT m.nlp_class, count(*) AS messages, avg(m.confidence) AS mean_confidence
FROM messages AS m
WHERE list_contains($projects, m.project) AND m."timestamp" >= $from AND m."timestamp" < $to
  AND ($all_channels OR list_contains($channels, m.channel_type))
  AND m.nlp_class IS NOT NULL
GROUP BY m.nlp_class
ORDER BY messages DESC, m.nlp_class
