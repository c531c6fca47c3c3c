-- unhandled-top: the 5 biggest clusters of the stored `reporter-etl unhandled` run of exactly the summary's
-- period, the run the unhandled report reads (every channel, /CatchAll; the one project's run, else the run of
-- every project when the summary covers them all: $every), with that run's previous period. One row with no
-- cluster when the run has none; no row when no run is stored.
WITH run AS (
  SELECT run_id, epoch_ms(previous_from) AS previous_from, epoch_ms(period_from) AS period_from
  FROM unhandled_runs
  WHERE period_from = $from AND period_to = $to AND channel_type = '' AND catch_all_class = '/CatchAll'
    AND ((len($projects) = 1 AND project = $projects[1]) OR (project = '' AND $every))
  ORDER BY project DESC
  LIMIT 1
)
SELECT r.run_id, r.previous_from, r.period_from, c.rank, c.label, c.messages, c.previous_messages, c.trend
FROM run AS r
LEFT JOIN unhandled_clusters AS c ON c.run_id = r.run_id AND c.rank <= 5
ORDER BY c.rank
