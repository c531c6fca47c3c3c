-- flows: the paths of the sessions started in [$from, $to) (the selection: $projects, $channels) and the
-- platform's routes beside the same sessions' routes, from one join of the sessions with their messages
-- (docs/paths.md): one window over each session's steps in message order ("timestamp", then question_id); the
-- platform's route of a session is its path unless an agent wrote in it, so only those sessions are ordered
-- again with the agent's messages. A step is a message the bot answered (not the agent's live chat); its state is nlp_state
-- ('/' when none); a session's path is its steps' states with consecutive repeats once. One row per figure,
-- `kind` saying which:
--   state       (channel, state): sessions with a step in it (sessions) and its steps (times); sessions whose
--               step in it was followed by a $catch_all answer (catch_all_after) or by a transfer to an agent
--               (agent_after); sessions whose last step is in it, by how that step ended: ended_end (a
--               regular answer), ended_catch_all (a catch-all answer), ended_agent (handed to an agent)
--   transition  (channel, state -> next): sessions that went from the state straight to the next; times
--   cluster     (state, next = cluster id, NULL when none): the catch-all questions right after the state, in
--               the stored unhandled run $run_id ('' for none): sessions, times = questions
--   sessions    (channel): sessions; times: those with at least one step
--   node        (step, state): the paths' states at their first $steps positions, the top $flow_nodes of each
--               position: sessions, times = those whose path ends there, extra = the position's sessions
--   link        (step, state -> next): the top $flow_links moves from one position to the next: sessions
--   route       (channel, next = the path's states joined with ' > ', step = their number): the top $top
--               paths of each channel and of all: sessions, extra = the channel's distinct paths
-- channel is NULL on the rows of every channel together (every_channel true).
-- The platform's routes (state_routes, per UTC day of the sessions' start and channel) over the sessions
-- started in the whole UTC days [$day_from, $day_to) (docs/paths.md#the-platforms-routes), by the platform's
-- rule: every message of the session in order, the agent's live-chat ones included, a repeated state once, the
-- first five states; the route's result the session's result ('' when none). Compared per project, day,
-- channel, route and result, on the days state_routes holds a row of for the project (the days the
-- state-routes source read); kind 'platform', one row per channel, route and result, the days summed:
--   platform   the platform's sessions;  ours  the warehouse's by that rule;  differing  Σ|platform − ours|
--   cut        of ours, sessions with more than five states (the route shows their first five)
--   agent      of ours, sessions with the agent's live-chat messages (their state '/' in the route)
--   same       of ours, sessions whose path is the route itself
-- Each row also has the totals over every route (routes, routes_differing, platform_sessions, our_sessions,
-- same_sessions, cut_sessions, agent_sessions); only the top $platform_top by the platform's sessions, those
-- that differ first. Kind 'platform-days' is one row: the days compared, those holding sessions of ours but no
-- row of the platform (days_not_synced) and their sessions. The two kinds' columns are NULL on other rows.
WITH picked AS (
  SELECT project, session_id, channel_type, row_number() OVER () AS sid,
    start_time >= $day_from AND start_time < $day_to AS in_days,
    CAST(timezone('UTC', start_time) AS DATE) AS day, coalesce(session_result, '') AS result
  FROM sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
), every_message AS (
  SELECT p.sid, p.channel_type, m.question_id, m."timestamp" AS ts, coalesce(m.nlp_state, '/') AS state,
    coalesce(m.nlp_class = $catch_all, false) AS catch_all, coalesce(m.is_transfer, false) AS transfer,
    coalesce(m.is_livechat, false) AS live
  FROM picked p JOIN messages m ON m.project = p.project AND m.session_id = p.session_id
), steps AS (
  SELECT * FROM every_message WHERE NOT live
), ordered AS MATERIALIZED (
  SELECT sid, channel_type, state, row_number() OVER w AS pos, lag(state) OVER w AS prev,
    coalesce(lead(catch_all) OVER w, false) AS next_catch_all,
    coalesce(lead(transfer) OVER w, false) AS next_transfer,
    CASE WHEN lead(catch_all) OVER w THEN lead(question_id) OVER w END AS next_question,
    CASE WHEN lead(sid) OVER w IS NOT NULL THEN NULL WHEN transfer THEN 'agent'
      WHEN catch_all THEN 'catch-all' ELSE 'end' END AS ending
  FROM steps
  WINDOW w AS (PARTITION BY sid ORDER BY ts, question_id)
), paths AS MATERIALIZED (
  SELECT sid, any_value(channel_type) AS channel_type,
    list_transform(list_sort(list({'p': pos, 's': state})), x -> x.s) AS path
  FROM ordered WHERE prev IS DISTINCT FROM state GROUP BY sid
), channel_paths AS MATERIALIZED (
  -- the distinct paths of each channel, with their sessions: a state's reach and the moves are counted here
  SELECT channel_type, path, count(*) AS sessions FROM paths GROUP BY channel_type, path
), path_counts AS (
  SELECT path, sum(sessions) AS sessions FROM channel_paths GROUP BY path
), positions AS (
  SELECT path, sessions, unnest(generate_series(1, least(len(path), $steps))) AS step FROM path_counts
), routes AS (
  SELECT channel_type, grouping(channel_type) = 1 AS every_channel, path, sum(sessions) AS sessions
  FROM channel_paths GROUP BY GROUPING SETS ((channel_type, path), (path))
), reached AS (
  SELECT channel_type, grouping(channel_type) = 1 AS every_channel, state, sum(sessions) AS sessions
  FROM (SELECT channel_type, unnest(list_distinct(path)) AS state, sessions FROM channel_paths)
  GROUP BY GROUPING SETS ((channel_type, state), (state))
), steps_by_state AS (
  SELECT channel_type, grouping(channel_type) = 1 AS every_channel, state, count(*) AS times,
    count(DISTINCT sid) FILTER (WHERE next_catch_all) AS catch_all_after,
    count(DISTINCT sid) FILTER (WHERE next_transfer) AS agent_after,
    count(*) FILTER (WHERE ending = 'end') AS ended_end,
    count(*) FILTER (WHERE ending = 'catch-all') AS ended_catch_all,
    count(*) FILTER (WHERE ending = 'agent') AS ended_agent
  FROM ordered GROUP BY GROUPING SETS ((channel_type, state), (state))
), moves AS (
  -- each move of a distinct path (a state, then the next), how many times the path makes it
  SELECT channel_type, sessions, path[i] AS prev, path[i + 1] AS state, count(*) AS times
  FROM (SELECT channel_type, path, sessions, unnest(generate_series(1, len(path) - 1)) AS i FROM channel_paths)
  GROUP BY channel_type, path, sessions, prev, state
), agent_states AS (
  -- the platform's rule: every message in order, the agent's included; the same as the path without them
  SELECT sid, list_transform(list_sort(list({'p': pos, 's': state}) FILTER (WHERE prev IS DISTINCT FROM state)),
    x -> x.s) AS states
  FROM (
    SELECT sid, state, row_number() OVER w AS pos, lag(state) OVER w AS prev
    FROM every_message
    WHERE sid IN (SELECT sid FROM every_message e JOIN picked p USING (sid) WHERE e.live AND p.in_days)
    WINDOW w AS (PARTITION BY sid ORDER BY ts, question_id))
  GROUP BY sid
), ours AS (
  SELECT p.project, p.day, p.channel_type, array_to_string(coalesce(a.states, t.path, [])[1:5], ' > ') AS route,
    p.result, count(*) AS sessions, count(*) FILTER (WHERE len(coalesce(a.states, t.path)) > 5) AS cut,
    count(*) FILTER (WHERE a.sid IS NOT NULL) AS agent,
    count(*) FILTER (WHERE coalesce(t.path, []) = coalesce(a.states, t.path, [])[1:5]) AS same
  FROM picked p LEFT JOIN paths t USING (sid) LEFT JOIN agent_states a USING (sid)
  WHERE p.in_days
  GROUP BY ALL
), platform AS (
  SELECT project, day, channel_type, route, result, sum(sessions) AS sessions
  FROM state_routes
  WHERE list_contains($projects, project) AND day >= CAST(timezone('UTC', $day_from) AS DATE)
    AND day < CAST(timezone('UTC', $day_to) AS DATE)
    AND ($all_channels OR list_contains($channels, channel_type))
  GROUP BY ALL
), synced AS (
  SELECT DISTINCT project, day FROM state_routes
  WHERE list_contains($projects, project) AND day >= CAST(timezone('UTC', $day_from) AS DATE)
    AND day < CAST(timezone('UTC', $day_to) AS DATE)
), joined AS (
  SELECT project, day, channel_type, route, result, coalesce(pl.sessions, 0) AS platform,
    coalesce(o.sessions, 0) AS ours, coalesce(o.cut, 0) AS cut, coalesce(o.agent, 0) AS agent,
    coalesce(o.same, 0) AS same, sd.day IS NOT NULL AS compared
  FROM ours o FULL JOIN platform pl USING (project, day, channel_type, route, result)
  LEFT JOIN synced sd USING (project, day)
), platform_routes AS (
  SELECT channel_type, route, result, sum(platform) AS platform, sum(ours) AS ours,
    sum(abs(platform - ours)) AS differing, sum(cut) AS cut, sum(agent) AS agent, sum(same) AS same
  FROM joined WHERE compared GROUP BY ALL
)
SELECT 'state' AS kind, s.channel_type AS channel, s.every_channel, NULL::BIGINT AS step, s.state,
  NULL AS next, r.sessions, s.times, s.catch_all_after, s.agent_after, s.ended_end, s.ended_catch_all,
  s.ended_agent, NULL::BIGINT AS extra
FROM steps_by_state s JOIN reached r
  ON r.every_channel = s.every_channel AND r.channel_type IS NOT DISTINCT FROM s.channel_type AND r.state = s.state
UNION ALL
SELECT 'transition', channel_type, grouping(channel_type) = 1, NULL, prev, state, sum(sessions),
  sum(sessions * times), NULL, NULL, NULL, NULL, NULL, NULL
FROM moves GROUP BY GROUPING SETS ((channel_type, prev, state), (prev, state))
UNION ALL
SELECT 'cluster', NULL, true, NULL, o.state, u.cluster_id, count(DISTINCT o.sid), count(*),
  NULL, NULL, NULL, NULL, NULL, NULL
FROM ordered o JOIN picked p USING (sid)
  LEFT JOIN unhandled_members u
  ON u.run_id = $run_id AND u.project = p.project AND u.question_id = o.next_question
WHERE o.next_catch_all GROUP BY o.state, u.cluster_id
UNION ALL
SELECT 'sessions', p.channel_type, grouping(p.channel_type) = 1, NULL, NULL, NULL, count(*), count(t.sid),
  NULL, NULL, NULL, NULL, NULL, NULL
FROM picked p LEFT JOIN paths t USING (sid) GROUP BY GROUPING SETS ((p.channel_type), ())
UNION ALL
SELECT 'node', NULL, true, step, path[step], NULL, sum(sessions),
  coalesce(sum(sessions) FILTER (WHERE len(path) = step), 0), NULL, NULL, NULL, NULL, NULL,
  sum(sum(sessions)) OVER (PARTITION BY step)
FROM positions GROUP BY step, path[step]
QUALIFY row_number() OVER (PARTITION BY step ORDER BY sum(sessions) DESC, path[step]) <= $flow_nodes
UNION ALL
SELECT 'link', NULL, true, step, path[step], path[step + 1], sum(sessions), sum(sessions),
  NULL, NULL, NULL, NULL, NULL, NULL
FROM positions WHERE step < len(path) AND step < $steps GROUP BY step, path[step], path[step + 1]
QUALIFY row_number() OVER (ORDER BY sum(sessions) DESC, step, path[step], path[step + 1]) <= $flow_links
UNION ALL
SELECT 'route', channel_type, every_channel, len(path), NULL, array_to_string(path, ' > '), sessions,
  NULL, NULL, NULL, NULL, NULL, NULL, count(*) OVER (PARTITION BY every_channel, channel_type)
FROM routes
QUALIFY row_number() OVER (PARTITION BY every_channel, channel_type ORDER BY sessions DESC, path) <= $top
UNION ALL BY NAME
SELECT 'platform' AS kind, r.channel_type AS channel, r.route, r.result, r.platform, r.ours, r.differing, r.cut,
  r.agent, r.same, t.*
FROM (FROM platform_routes ORDER BY differing > 0 DESC, platform DESC, ours DESC, channel_type, route, result
  LIMIT $platform_top) r
  CROSS JOIN (SELECT count(*) AS routes, count(*) FILTER (WHERE differing > 0) AS routes_differing,
    sum(platform) AS platform_sessions, sum(ours) AS our_sessions, sum(same) AS same_sessions,
    sum(cut) AS cut_sessions, sum(agent) AS agent_sessions FROM platform_routes) t
UNION ALL BY NAME
SELECT 'platform-days' AS kind, count(DISTINCT (project, day)) FILTER (WHERE compared) AS days_compared,
  count(DISTINCT (project, day)) FILTER (WHERE NOT compared) AS days_not_synced,
  coalesce(sum(ours) FILTER (WHERE NOT compared), 0) AS sessions_not_synced
FROM joined
