// The SQL of the coverage of an unhandled run's top clusters (migration 021): the staged retrieval results
// (stage_unhandled_coverage, one row per cluster asked) joined with what the Prompter recorded for the
// cluster's messages: prompter_requests whose question is the text of one of the cluster's members, and the
// answer options that came back for them. Bound parameters: $run_id, $threshold, $terms_threshold, $computed_at.

export const INSERT_COVERAGE = `
INSERT INTO unhandled_coverage
WITH texts AS (
  SELECT DISTINCT u.cluster_id, m.question
  FROM unhandled_members u JOIN messages m ON m.project = u.project AND m.question_id = u.question_id
  WHERE u.run_id = $run_id AND u.cluster_id IN (SELECT cluster_id FROM stage_unhandled_coverage)
), asked AS (
  SELECT DISTINCT t.cluster_id, r.batch_id, r.seq, r.question_id
  FROM texts t JOIN prompter_requests r ON r.question = t.question
), options AS (
  SELECT a.cluster_id, o.rank, coalesce(o.intent_path, o.intent_name) AS intent
  FROM asked a JOIN prompter_answer_options o ON o.question_id = a.question_id
), prompted AS (
  SELECT a.cluster_id, count(*)::BIGINT AS requests,
    (SELECT count(*) FROM options o WHERE o.cluster_id = a.cluster_id)::BIGINT AS suggestions,
    (SELECT mode(o.intent ORDER BY o.intent) FROM options o WHERE o.cluster_id = a.cluster_id AND o.rank = 1)
      AS top_intent
  FROM asked a GROUP BY a.cluster_id
)
SELECT $run_id, s.cluster_id, s.central_question, s.kb_asked, s.best_source_id, s.best_source_name, s.score,
  s.terms_found,
  CASE WHEN s.kb_asked THEN coalesce(s.score, 0) >= $threshold AND coalesce(s.terms_found, 0) >= $terms_threshold END,
  $threshold, $terms_threshold, s.kb_error,
  coalesce(p.requests, 0), coalesce(p.suggestions, 0), p.top_intent, $computed_at
FROM stage_unhandled_coverage s LEFT JOIN prompted p USING (cluster_id)`;

/** The coverage of a run's clusters. */
export const SELECT_COVERAGE = `
SELECT cluster_id, central_question, kb_asked, best_source_id, best_source_name, score, terms_found, answerable,
  threshold, terms_threshold, kb_error, prompter_requests, prompter_suggestions, prompter_top_intent
FROM unhandled_coverage WHERE run_id = $run_id`;
