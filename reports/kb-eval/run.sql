-- The kb eval run the report is about: the latest run started in [$from, $to) that finished normally (success
-- or partial: every question asked; a stopped, failed, abandoned or running run never headlines), with the
-- previous such run of the same knowledge base project and question set beside it (view kb_eval_run_changes).
SELECT c.*, r.finished_at, r.kb_base_url, r.question_query, r.settings, r.answered, r.retrieval_failures,
  r.with_expected_sources, r.with_expected_answer, r.requests, r.status_requests, r.duration_ms, r.error,
  p.questions AS previous_questions, p.answered AS previous_answered, p.mode AS previous_mode
FROM kb_eval_run_changes c
JOIN kb_eval_runs r ON r.run_id = c.run_id
LEFT JOIN kb_eval_runs p ON p.run_id = c.previous_run_id
WHERE c.started_at >= $from AND c.started_at < $to AND c.baseline
ORDER BY c.started_at DESC, c.run_id DESC
LIMIT 1
