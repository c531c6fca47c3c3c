-- transferred-sessions: sessions of one project started in [$from, $to) with a `switch` reply, all channels
-- (what stats/switched-sessions counts over whole days), for the reconciliation.
SELECT count(*) AS transferred_sessions
FROM stat_sessions AS s
WHERE s.project = $project AND s.start_time >= $from AND s.start_time < $to
  AND s.session_id IN (SELECT session_id FROM stat_transfers WHERE project = $project)
