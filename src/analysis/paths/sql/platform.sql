-- platform: the platform's routes (state_routes, per UTC day of the sessions' start and channel) beside the
-- same routes made from the warehouse's messages by the platform's rule, over the whole UTC days
-- [$day_from, $day_to) and the selection (docs/paths.md#the-platforms-routes). The platform's rule: every
-- message of the session in order, the agent's live-chat ones included, its state nlp_state or '/' when it has
-- none, a repeated state once, the first five states; the route's result is the session's result ('' when
-- none). Compared per project, day, channel, route and result, on the days state_routes holds a row of for the
-- project (the days the state-routes source read); one row per channel, route and result, the days summed:
--   platform   the platform's sessions;  ours  the warehouse's by that rule;  differing  Σ|platform − ours|
--   cut        of ours, sessions with more than five states (the route shows their first five)
--   agent      of ours, sessions with the agent's live-chat messages (their state '/' in the route)
--   same       of ours, sessions whose path (docs/paths.md) is the route itself
-- Each row also has the totals over every route (routes, routes_differing, platform_sessions, our_sessions,
-- same_sessions, cut_sessions, agent_sessions);
-- only the top $top by the platform's sessions are returned, those that differ first. Kind 'days' is one row:
-- the days compared, those holding sessions of ours but no row of the platform (days_not_synced) and their
-- sessions.
WITH picked AS (
  SELECT project, session_id, channel_type, row_number() OVER () AS sid,
    CAST(timezone('UTC', start_time) AS DATE) AS day,
    coalesce(session_result, '') AS result
  FROM sessions
  WHERE list_contains($projects, project) AND start_time >= $day_from AND start_time < $day_to
    AND ($all_channels OR list_contains($channels, channel_type))
), steps AS (
  SELECT p.sid, m."timestamp" AS ts, m.question_id, coalesce(m.nlp_state, '/') AS state,
    coalesce(m.is_livechat, false) AS live
  FROM picked p JOIN messages m ON m.project = p.project AND m.session_id = p.session_id
), ordered AS (
  SELECT sid, state, live, row_number() OVER w AS pos, lag(state) OVER w AS prev,
    lag(CASE WHEN NOT live THEN state END IGNORE NULLS) OVER w AS prev_bot
  FROM steps
  WINDOW w AS (PARTITION BY sid ORDER BY ts, question_id)
), per_session AS (
  SELECT sid,
    list_transform(list_sort(list({'p': pos, 's': state}) FILTER (WHERE prev IS DISTINCT FROM state)),
      x -> x.s) AS states,
    list_transform(list_sort(list({'p': pos, 's': state})
      FILTER (WHERE NOT live AND prev_bot IS DISTINCT FROM state)), x -> x.s) AS path,
    bool_or(live) AS with_agent
  FROM ordered GROUP BY sid
), ours AS (
  SELECT p.project, p.day, p.channel_type, array_to_string(coalesce(s.states, [])[1:5], ' > ') AS route,
    p.result, count(*) AS sessions, count(*) FILTER (WHERE len(s.states) > 5) AS cut,
    count(*) FILTER (WHERE s.with_agent) AS agent,
    count(*) FILTER (WHERE coalesce(s.path, []) = coalesce(s.states, [])[1:5]) AS same
  FROM picked p LEFT JOIN per_session s USING (sid)
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
), routes AS (
  SELECT channel_type, route, result, sum(platform) AS platform, sum(ours) AS ours,
    sum(abs(platform - ours)) AS differing, sum(cut) AS cut, sum(agent) AS agent, sum(same) AS same
  FROM joined WHERE compared GROUP BY ALL
)
SELECT 'route' AS kind, channel_type AS channel, route, result, platform, ours, differing, cut, agent, same,
  count(*) OVER () AS routes, count(*) FILTER (WHERE differing > 0) OVER () AS routes_differing,
  sum(platform) OVER () AS platform_sessions, sum(ours) OVER () AS our_sessions,
  sum(same) OVER () AS same_sessions, sum(cut) OVER () AS cut_sessions, sum(agent) OVER () AS agent_sessions,
  NULL::BIGINT AS days_compared, NULL::BIGINT AS days_not_synced, NULL::BIGINT AS sessions_not_synced
FROM routes
QUALIFY row_number() OVER (ORDER BY differing > 0 DESC, platform DESC, ours DESC, channel, route, result) <= $top
UNION ALL
SELECT 'days', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
  count(DISTINCT (project, day)) FILTER (WHERE compared),
  count(DISTINCT (project, day)) FILTER (WHERE NOT compared),
  coalesce(sum(ours) FILTER (WHERE NOT compared), 0)
FROM joined
