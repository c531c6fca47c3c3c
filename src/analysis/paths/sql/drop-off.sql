-- drop-off: for each state, the sessions started in [$from, $to) (the selection: $projects, $channels) that
-- reached it and those whose path ended there, by how its last step ended (docs/paths.md): the lighter part of
-- flows.sql that `stats --json` shows (key `paths`), with the same definitions. A step is a message the bot
-- answered (not the agent's live chat), ordered by "timestamp", then question_id.
-- Rows (every selected channel together): state, sessions (reached), times (its steps), ended_end,
-- ended_catch_all (a $catch_all answer), ended_agent (handed to an agent).
-- Only hash aggregates, and max() of a struct for "the last step" (max orders a struct field by field: the
-- step's time, then its id; the fields after them come along): DuckDB spills those to disk beyond its
-- memory_limit, where a window over the ordered steps or an arg_max by a struct ran out of memory at 10 M
-- messages in 256 MB.
WITH picked AS (
  SELECT project, session_id
  FROM sessions
  WHERE list_contains($projects, project) AND start_time >= $from AND start_time < $to
    AND ($all_channels OR list_contains($channels, channel_type))
), per_state AS MATERIALIZED (
  SELECT m.project, m.session_id, coalesce(m.nlp_state, '/') AS state, count(*) AS times,
    max({'ts': m."timestamp", 'id': m.question_id,
      'ending': CASE WHEN coalesce(m.is_transfer, false) THEN 'agent'
        WHEN coalesce(m.nlp_class = $catch_all, false) THEN 'catch-all' ELSE 'end' END}) AS last_step
  FROM messages m SEMI JOIN picked p ON m.project = p.project AND m.session_id = p.session_id
  WHERE NOT coalesce(m.is_livechat, false)
  GROUP BY m.project, m.session_id, state
), reached AS (
  SELECT state, count(*) AS sessions, sum(times) AS times FROM per_state GROUP BY state
), last_steps AS (
  SELECT max({'ts': last_step.ts, 'id': last_step.id, 'state': state, 'ending': last_step.ending}) AS last
  FROM per_state GROUP BY project, session_id
), endings AS (
  SELECT last.state AS state, count(*) FILTER (WHERE last.ending = 'end') AS ended_end,
    count(*) FILTER (WHERE last.ending = 'catch-all') AS ended_catch_all,
    count(*) FILTER (WHERE last.ending = 'agent') AS ended_agent
  FROM last_steps GROUP BY last.state
)
SELECT state, sessions, times, coalesce(ended_end, 0) AS ended_end,
  coalesce(ended_catch_all, 0) AS ended_catch_all, coalesce(ended_agent, 0) AS ended_agent
FROM reached LEFT JOIN endings USING (state)
