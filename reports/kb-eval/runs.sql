-- Every finished kb eval run started in [$from, $to), oldest first, each with its change from the previous
-- normally finished run of the same knowledge base project and question set (view kb_eval_run_changes).
-- Stopped, failed and abandoned runs are listed too, flagged: `finished_normally` false and `note` saying why
-- their figures cover only the questions they asked.
SELECT run_id, started_at, project_name, question_source, mode, status, baseline AS finished_normally,
  CASE status
    WHEN 'stopped' THEN 'STOPPED (Ctrl-C / SIGTERM): not every question asked; not compared with later runs'
    WHEN 'failed' THEN 'FAILED: no question answered, or the key refused; not compared with later runs'
    WHEN 'abandoned' THEN 'ABANDONED (the process died): not compared with later runs'
  END AS note,
  questions, failures,
  hit_at_1, hit_at_5, mrr, answer_contains_rate, latency_p50_ms, latency_p95_ms,
  previous_run_id, hit_at_1_change, hit_at_5_change, mrr_change, answer_contains_rate_change, failures_change
FROM kb_eval_run_changes
WHERE started_at >= $from AND started_at < $to
ORDER BY started_at, run_id
