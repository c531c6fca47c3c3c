-- prompter: how good the Prompter's suggestions were for the questions `prompter ask` sent (prompter_requests)
-- with sent_at in [$prompter_from, $prompter_to) (epoch ms), joined by question_id with what the webhook
-- receiver stored (prompter_answers, once per question; prompter_answer_options, rank 1 = best).
-- answered: the question has an answer row (whenever it arrived); with_options: its answer had an option;
-- mean_options over the answered ones; top-1 confidence over the answers with an option (its buckets as a
-- list of tenths, 0..9, counted by the code); accuracy over the answered questions with an expected intent
-- (no option counts as a miss): top-1 when the rank-1 option is the expected intent (intent_path or
-- intent_name equal to it), top-3 when one of ranks 1 to 3 is; latency: received_at - sent_at in ms.
WITH req AS (
  SELECT r.question_id, r.outcome, r.expected_intent, a.options,
    a.question_id IS NOT NULL AS answered,
    epoch_ms(a.received_at) - epoch_ms(r.sent_at) AS latency_ms
  FROM prompter_requests AS r
  LEFT JOIN prompter_answers AS a ON a.question_id = r.question_id
  WHERE epoch_ms(r.sent_at) >= $prompter_from AND epoch_ms(r.sent_at) < $prompter_to
),
hits AS (
  SELECT q.question_id, bool_or(o.rank = 1) AS top1, bool_or(o.rank <= 3) AS top3
  FROM req AS q
  JOIN prompter_answer_options AS o ON o.question_id = q.question_id
    AND (o.intent_path = q.expected_intent OR o.intent_name = q.expected_intent)
  WHERE q.expected_intent IS NOT NULL
  GROUP BY q.question_id
),
best AS (
  SELECT o.question_id, o.confidence FROM prompter_answer_options AS o WHERE o.rank = 1
)
SELECT count(*) AS questions,
  count(q.question_id) AS sent,
  count(*) FILTER (WHERE q.outcome = 'failed') AS failed,
  count(*) FILTER (WHERE q.answered) AS answered,
  count(*) FILTER (WHERE q.options > 0) AS with_options,
  avg(q.options) AS mean_options,
  count(*) FILTER (WHERE q.answered AND q.expected_intent IS NOT NULL) AS with_expected,
  count(*) FILTER (WHERE q.answered AND h.top1) AS top1_hits,
  count(*) FILTER (WHERE q.answered AND h.top3) AS top3_hits,
  avg(b.confidence) AS top1_mean,
  quantile_cont(b.confidence, 0.5) AS top1_p50,
  quantile_cont(b.confidence, 0.9) AS top1_p90,
  list(least(9, greatest(0, floor(b.confidence * 10)))::INTEGER) FILTER (WHERE b.confidence IS NOT NULL) AS top1_tenths,
  avg(q.latency_ms) AS latency_mean,
  quantile_cont(q.latency_ms, 0.5) AS latency_p50,
  quantile_cont(q.latency_ms, 0.9) AS latency_p90,
  quantile_cont(q.latency_ms, 0.99) AS latency_p99,
  max(q.latency_ms) AS latency_max
FROM req AS q
LEFT JOIN hits AS h ON h.question_id = q.question_id
LEFT JOIN best AS b ON b.question_id = q.question_id
