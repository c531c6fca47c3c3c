-- Every finished kb eval run started in [$from, $to), oldest first, each with its change from the previous
-- run of the same knowledge base project and question source (view kb_eval_run_changes).
SELECT run_id, started_at, project_name, question_source, mode, status, questions, failures,
  hit_at_1, hit_at_5, mrr, answer_contains_rate, latency_p50_ms, latency_p95_ms,
  previous_run_id, hit_at_1_change, hit_at_5_change, mrr_change, answer_contains_rate_change, failures_change
FROM kb_eval_run_changes
WHERE started_at >= $from AND started_at < $to
ORDER BY started_at, run_id
