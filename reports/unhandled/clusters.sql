-- The clusters of the report's run ($run_id), biggest first, as `reporter-etl unhandled` stored them.
SELECT rank, cluster_id, label, messages, previous_messages, trend, share, clients, agent_sessions,
  array_to_string(channels, ', ') AS channels, array_to_string(examples, ' | ') AS examples
FROM unhandled_clusters
WHERE run_id = $run_id
ORDER BY rank
