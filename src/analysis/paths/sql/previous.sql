-- previous: the paths of the previous period's sessions (started in [$previous_from, $from), the selection),
-- made as flows.sql makes them (docs/paths.md), counted for the routes $routes only (the period's top routes),
-- per channel and for every channel together (channel NULL, every_channel true); kind 'total' rows count the
-- sessions with a path of each channel and of all.
WITH picked AS (
  SELECT project, session_id, channel_type, row_number() OVER () AS sid
  FROM sessions
  WHERE list_contains($projects, project) AND start_time >= $previous_from AND start_time < $from
    AND ($all_channels OR list_contains($channels, channel_type))
), steps AS (
  SELECT p.sid, m.question_id, m."timestamp" AS ts, coalesce(m.nlp_state, '/') AS state
  FROM picked p JOIN messages m ON m.project = p.project AND m.session_id = p.session_id
  WHERE NOT coalesce(m.is_livechat, false)
), ordered AS (
  SELECT sid, state, row_number() OVER w AS pos, lag(state) OVER w AS prev
  FROM steps
  WINDOW w AS (PARTITION BY sid ORDER BY ts, question_id)
), paths AS MATERIALIZED (
  SELECT o.sid, any_value(p.channel_type) AS channel_type,
    array_to_string(list_transform(list_sort(list({'p': o.pos, 's': o.state})), x -> x.s), ' > ') AS route
  FROM ordered o JOIN picked p USING (sid)
  WHERE o.prev IS DISTINCT FROM o.state GROUP BY o.sid
)
SELECT 'route' AS kind, channel_type AS channel, grouping(channel_type) = 1 AS every_channel, route,
  count(*) AS sessions
FROM paths WHERE list_contains($routes, route)
GROUP BY GROUPING SETS ((channel_type, route), (route))
UNION ALL
SELECT 'total', channel_type, grouping(channel_type) = 1, NULL, count(*)
FROM paths GROUP BY GROUPING SETS ((channel_type), ())
