// The dialog paths step's child. `build`: a warehouse of MESSAGES messages in the 30 days before 2026-11-01
// and a quarter as many in the 30 days before those, 4 a session, made by DuckDB itself: each message's
// state one of 12 by a hash (its class the same; 1 in 8 the catch-all class), 1 in 40 a transfer to an
// agent followed by the agent's live chat, the platform's state_routes of every day. `paths`: one computePaths
// over the 30 days (the measured work: the flows, the previous period, the platform's routes beside ours).
// `floor`: the same sessions' messages joined and counted per state, nothing else (the scan the paths need).
// Usage: compute-paths.js build|paths|floor WAREHOUSE.duckdb [MESSAGES]; prints JSON.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { computePaths } from '../../src/analysis/paths/compute-paths.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';

const DAY = 86_400_000;
const TO = Date.parse('2026-11-01T00:00:00Z');
const FROM = TO - 30 * DAY;

const [mode, path, messagesText = '1000000'] = process.argv.slice(2);
if (!path || !['build', 'paths', 'floor'].includes(mode ?? '')) {
  process.stderr.write('usage: compute-paths.js build|paths|floor WAREHOUSE.duckdb [MESSAGES]\n');
  process.exit(2);
}

const STATES =
  "['/Start', '/Greeting', '/Delivery/Status', '/Payment/Methods', '/Refund', '/Hours', '/Address', '/Thanks', '/Goodbye', '/Order/New', '/Order/Cancel', '/CatchAll']";
const CHANNELS = "['telegram', 'chatwidget', 'viber', 'vk']";

async function build(messages: number): Promise<Record<string, number>> {
  mkdirSync(dirname(path!), { recursive: true });
  const sessions = Math.floor((messages + Math.floor(messages / 4)) / 4);
  const current = Math.floor(messages / 4);
  const warehouse = await openWarehouse({ path: path! });
  // session s starts evenly over its period: the first `current` in the 30 days, the rest in the 30 before
  const start = `CASE WHEN s < ${current} THEN ${FROM} + (s * ${30 * DAY}) // ${current}
    ELSE ${FROM - 30 * DAY} + ((s - ${current}) * ${30 * DAY}) // ${sessions - current} END`;
  await warehouse.execute([
    {
      sql: `INSERT INTO sessions (project, session_id, channel_type, client_id, start_time, session_result, synced_at)
        SELECT 'bench', 's' || s, ${CHANNELS}[1 + s % 4], 'c' || (s // 3), make_timestamptz((${start}) * 1000),
          CASE WHEN hash(s, 7) % 3 = 0 THEN 'ok' ELSE '' END, now()
        FROM range(${sessions}) t(s)`,
    },
    {
      sql: `INSERT INTO messages (project, question_id, session_id, "timestamp", nlp_state, nlp_class, is_transfer,
          is_livechat, channel_type, synced_at)
        SELECT 'bench', 'q' || n, 's' || s, make_timestamptz(((${start}) + k * 20000) * 1000),
          CASE WHEN live THEN NULL ELSE state END, CASE WHEN live THEN NULL ELSE state END,
          NOT live AND transfer_at = k, live, ${CHANNELS}[1 + s % 4], now()
        FROM (SELECT n, n // 4 AS s, n % 4 AS k, ${STATES}[(1 + hash(n, 1) % 12)::BIGINT] AS state,
                CASE WHEN hash(n // 4, 2) % 40 = 0 THEN (hash(n // 4, 3) % 3)::BIGINT ELSE 9 END AS transfer_at,
                n % 4 > (CASE WHEN hash(n // 4, 2) % 40 = 0 THEN (hash(n // 4, 3) % 3)::BIGINT ELSE 9 END) AS live
              FROM range(${sessions * 4}) t(n))`,
    },
    {
      sql: `INSERT INTO state_routes (project, day, channel_type, states, route, result, sessions, synced_at)
        SELECT 'bench', CAST(timezone('UTC', s.start_time) AS DATE), s.channel_type, [], '', coalesce(s.session_result, ''),
          count(*), now()
        FROM sessions s GROUP BY ALL`,
    },
  ]);
  const rows = await warehouse.query('SELECT count(*)::BIGINT AS n FROM messages');
  await warehouse.close();
  return { messages: Number(rows[0]!['n']) };
}

const started = performance.now();
let result: Record<string, unknown>;
if (mode === 'build') result = await build(Number(messagesText));
else {
  const warehouse = await openWarehouse({ path });
  if (mode === 'paths') {
    const report = await computePaths(warehouse, {
      from: FROM,
      to: TO,
      timeZone: 'UTC',
      top: 10,
      catchAllClass: '/CatchAll',
    });
    result = {
      sessions: report.totals.sessions,
      withPath: report.totals.withPath,
      routes: report.totals.routes,
      states: report.states.length,
      previousCovered: report.previous.covered,
      platformRoutes: report.platform.routes,
    };
  } else {
    const rows = await warehouse.query(
      `SELECT m.nlp_state, count(*)::BIGINT AS n, count(DISTINCT m.session_id)::BIGINT AS sessions
       FROM sessions s JOIN messages m ON m.project = s.project AND m.session_id = s.session_id
       WHERE s.start_time >= $from AND s.start_time < $to GROUP BY m.nlp_state`,
      { from: new Date(FROM), to: new Date(TO) },
    );
    result = { states: rows.length };
  }
  await warehouse.close();
}
process.stdout.write(`${JSON.stringify({ ...result, seconds: (performance.now() - started) / 1000 })}\n`);
