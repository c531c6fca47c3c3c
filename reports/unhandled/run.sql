-- The stored `reporter-etl unhandled` run the report is about: of exactly its period [$from, $to), every
-- channel, the catch-all class /CatchAll; the run of its one project ($projects), else the run of every
-- project when the report covers every project of the warehouse ($every). The project's own run first.
SELECT run_id, project, catch_all_class, epoch_ms(period_from) AS period_from, epoch_ms(period_to) AS period_to,
  epoch_ms(previous_from) AS previous_from, unrecognised, previous_unrecognised, clustered, clusters,
  -- a run stored before migration 025 counted no "other": what it did not cluster is
  coalesce(other_messages, unrecognised - clustered) AS other_messages, other_texts, vectors,
  epoch_ms(computed_at) AS computed_at
FROM unhandled_runs
WHERE period_from = $from AND period_to = $to AND channel_type = '' AND catch_all_class = '/CatchAll'
  AND ((len($projects) = 1 AND project = $projects[1]) OR (project = '' AND $every))
ORDER BY project DESC
LIMIT 1
