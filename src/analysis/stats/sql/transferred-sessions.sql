-- transferred-sessions: sessions of one project started in [$from, $to) with a `switch` reply, all channels
-- (what stats/switched-sessions counts over whole days), for the reconciliation: the window's whole quarter
-- hours from stat_session_quarters, the partial ones at its edges from stat_sessions.
SELECT (
  coalesce((SELECT sum(sessions) FROM stat_session_quarters
    WHERE project = $project AND q >= $q_lo AND q < $q_hi AND transferred), 0)
  + (SELECT count(*) FROM stat_sessions
    WHERE project = $project AND transferred
      AND ((start_time >= $from AND start_time < $head_to) OR (start_time >= $tail_from AND start_time < $to)))
)::BIGINT AS transferred_sessions
