-- drop-off: for each state, the sessions started in [$from, $to) (the selection: $projects, $channels) that
-- reached it and those whose path ended there, by how its last step ended (docs/paths.md): the lighter part of
-- flows.sql that `stats --json` shows (key `paths`), with the same definitions and no window over the steps.
-- A step is a message the bot answered (not the agent's live chat), ordered by "timestamp", then question_id.
-- Rows (every selected channel together): state, sessions (reached), times (its steps), ended_end,
-- ended_catch_all (a $catch_all answer), ended_agent (handed to an agent).
WITH picked AS (
  SELECT project, session_id, row_number() OVER () AS sid
  FROM sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
), per_state AS (
  SELECT p.sid, coalesce(m.nlp_state, '/') AS state, count(*) AS times,
    max({'ts': m."timestamp", 'id': m.question_id}) AS last_at,
    arg_max(CASE WHEN coalesce(m.is_transfer, false) THEN 'agent'
      WHEN coalesce(m.nlp_class = $catch_all, false) THEN 'catch-all' ELSE 'end' END,
      {'ts': m."timestamp", 'id': m.question_id}) AS ending
  FROM picked p JOIN messages m ON m.project = p.project AND m.session_id = p.session_id
  WHERE NOT coalesce(m.is_livechat, false)
  GROUP BY p.sid, state
), last_steps AS (
  SELECT sid, arg_max(state, last_at) AS state, arg_max(ending, last_at) AS ending
  FROM per_state GROUP BY sid
)
SELECT s.state, count(*) AS sessions, sum(s.times) AS times,
  count(*) FILTER (WHERE l.ending = 'end') AS ended_end,
  count(*) FILTER (WHERE l.ending = 'catch-all') AS ended_catch_all,
  count(*) FILTER (WHERE l.ending = 'agent') AS ended_agent
FROM per_state s LEFT JOIN last_steps l ON l.sid = s.sid AND l.state = s.state
GROUP BY s.state
