-- The questions of run $run_id that did worse than in the previous comparable run (view
-- kb_eval_question_changes: found within 5 then not, answered with the expected text then not, answered then
-- failed).
SELECT seq, question, previous_hit_rank, hit_rank, previous_status, status, previous_answer_contains,
  answer_contains, previous_latency_ms, latency_ms
FROM kb_eval_question_changes
WHERE run_id = $run_id AND regressed
ORDER BY seq
