-- unhandled-clusters: the rank and label of the clusters of the stored unhandled run $run_id.
SELECT cluster_id, rank, label FROM unhandled_clusters WHERE run_id = $run_id ORDER BY rank
