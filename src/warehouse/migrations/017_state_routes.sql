-- 017_state_routes: the routes sessions take through the bot's states (docs/state-routes.md), as the
-- Reporter's state-routes/filter groups them: per UTC day of the sessions' start and per channel, each
-- route (the states passed, at most five) with its result and the number of sessions that took it. A day is
-- read whole and replaces what was stored for that day and project, so a route that stopped existing (its
-- sessions went on to other states) leaves no stale row.
-- Key: project, day, channel_type, route, result (kept by the load, as for every table: 001_init.sql).
CREATE TABLE state_routes (
  project VARCHAR NOT NULL,
  day DATE NOT NULL,
  channel_type VARCHAR NOT NULL,
  -- the states in order, e.g. ['/Start', '/Delivery', '/Delivery/Status']
  states VARCHAR[] NOT NULL,
  -- the states joined with ' > ': the route as one value to group and filter by
  route VARCHAR NOT NULL,
  -- stateRouteResult as the platform gave it (the sessions' result), '' when it gave none
  result VARCHAR NOT NULL,
  sessions BIGINT NOT NULL,
  synced_at TIMESTAMPTZ NOT NULL
);
