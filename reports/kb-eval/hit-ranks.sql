-- How the questions of run $run_id with expected sources ranked them: the hit rank's distribution (1 to 5,
-- below 5, not found; retrieval failures apart).
SELECT
  count(*) FILTER (WHERE retrieval_status = 'ok' AND hit_rank = 1) AS rank_1,
  count(*) FILTER (WHERE retrieval_status = 'ok' AND hit_rank = 2) AS rank_2,
  count(*) FILTER (WHERE retrieval_status = 'ok' AND hit_rank = 3) AS rank_3,
  count(*) FILTER (WHERE retrieval_status = 'ok' AND hit_rank = 4) AS rank_4,
  count(*) FILTER (WHERE retrieval_status = 'ok' AND hit_rank = 5) AS rank_5,
  count(*) FILTER (WHERE retrieval_status = 'ok' AND hit_rank > 5) AS below_5,
  count(*) FILTER (WHERE retrieval_status = 'ok' AND hit_rank IS NULL) AS not_found,
  count(*) FILTER (WHERE retrieval_status <> 'ok') AS retrieval_failed
FROM kb_eval_questions
WHERE run_id = $run_id AND len(expected_sources) > 0
