-- The questions of run $run_id that went wrong, worst first: not answered, then retrieval that found no
-- expected source (or failed), then an answer without the expected text, then an expected source found
-- below rank 1; the slowest first within each. With the source of the top chunk and the previous run's
-- hit rank and status of the same question (view kb_eval_question_changes).
SELECT q.seq, q.question, q.status, q.error_code, coalesce(q.error, q.retrieval_error) AS error,
  q.hit_rank, array_to_string(q.expected_sources, ' | ') AS expected_sources,
  (SELECT coalesce(k.source_title, CAST(k.source_id AS VARCHAR)) FROM kb_eval_chunks k
    WHERE k.run_id = q.run_id AND k.seq = q.seq AND k.rank = 1) AS top_source,
  q.answer_contains, q.answer, q.latency_ms,
  c.previous_hit_rank, c.previous_status, c.regressed,
  CASE
    WHEN q.status <> 'answered' THEN 1
    WHEN q.retrieval_status <> 'ok' THEN 2
    WHEN len(q.expected_sources) > 0 AND q.hit_rank IS NULL THEN 2
    WHEN q.answer_contains = false THEN 3
    ELSE 4
  END AS severity
FROM kb_eval_questions q
LEFT JOIN kb_eval_question_changes c ON c.run_id = q.run_id AND c.seq = q.seq
WHERE q.run_id = $run_id
  AND (q.status <> 'answered' OR q.retrieval_status <> 'ok' OR q.answer_contains = false
    OR (len(q.expected_sources) > 0 AND (q.hit_rank IS NULL OR q.hit_rank > 1)))
ORDER BY severity, q.hit_rank DESC NULLS FIRST, q.latency_ms DESC NULLS FIRST, q.seq
