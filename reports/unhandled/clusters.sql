-- The clusters of the report's run ($run_id), biggest first, as `reporter-etl unhandled` stored them, with
-- the coverage of the top clusters (unhandled_coverage: the knowledge base's best source and score for the
-- central question, answerable, the Prompter's suggestions); NULL coverage beyond the top or when not asked.
SELECT c.rank, c.cluster_id, c.label, c.messages, c.previous_messages, c.trend, c.share, c.clients,
  c.agent_sessions, array_to_string(c.channels, ', ') AS channels, array_to_string(c.examples, ' | ') AS examples,
  v.best_source_name, CASE WHEN v.kb_asked THEN v.score END AS score,
  CASE WHEN v.kb_asked THEN v.terms_found END AS terms_found, v.answerable,
  v.cluster_id IS NOT NULL AS covered, v.prompter_requests, v.prompter_suggestions, v.prompter_top_intent
FROM unhandled_clusters c
LEFT JOIN unhandled_coverage v ON v.run_id = c.run_id AND v.cluster_id = c.cluster_id
WHERE c.run_id = $run_id
ORDER BY c.rank
