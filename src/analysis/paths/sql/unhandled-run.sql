-- unhandled-run: the stored `reporter-etl unhandled` run of exactly this period and selection (docs/unhandled.md):
-- $project and $channel '' for every project / channel, as the run stores them; its id, or no row.
SELECT run_id, clusters, unrecognised, clustered
FROM unhandled_runs
WHERE project = $project AND channel_type = $channel AND catch_all_class = $catch_all
  AND period_from = $from AND period_to = $to
ORDER BY computed_at DESC, run_id
LIMIT 1
