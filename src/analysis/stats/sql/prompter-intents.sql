-- prompter-intents: the intents the Prompter suggested first (rank 1) for the questions of prompter.sql's
-- window, most suggested first (top $top), with how often and their mean confidence.
SELECT o.intent_path, any_value(o.intent_name) AS intent_name, count(*) AS questions,
  avg(o.confidence) AS mean_confidence
FROM prompter_requests AS r
JOIN prompter_answer_options AS o ON o.question_id = r.question_id AND o.rank = 1
WHERE epoch_ms(r.sent_at) >= $prompter_from AND epoch_ms(r.sent_at) < $prompter_to
GROUP BY o.intent_path
ORDER BY questions DESC, o.intent_path
LIMIT $top
