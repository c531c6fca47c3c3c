-- transferred-sessions: sessions of one project started in [$from, $to) with a `switch` reply, all channels
-- (what stats/switched-sessions counts over whole days), for the reconciliation.
SELECT count(*) AS transferred_sessions
FROM sessions AS s
WHERE s.project = $project AND s.start_time >= $from AND s.start_time < $to
  AND EXISTS (
    SELECT 1 FROM messages AS m
    WHERE m.project = s.project AND m.session_id = s.session_id AND m.is_transfer
  )
