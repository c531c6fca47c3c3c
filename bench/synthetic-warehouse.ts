// Builds a synthetic warehouse of any size (10,000,000 messages in well under a minute) entirely in DuckDB
// SQL, for timing the statistics queries: the real schema (migrations), one project, sessions spread over
// `days`, ten messages each, channels, delivery statuses by the channel rules with their status history,
// labels, sessionData with an experiment, clients and catalogues. Values come from hash() of row numbers:
// the same options give the same warehouse.
import { existsSync, rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { runMigrations } from '../src/warehouse/run-migrations.js';

export interface SyntheticWarehouseOptions {
  /** The DuckDB file to create (replaced when it exists). */
  path: string;
  /** Messages to generate (ten per session). Default 10,000,000. */
  messages?: number;
  /** Days the sessions are spread over, ending at `end`. Default 30. */
  days?: number;
  /** End of the data (epoch ms, exclusive). Default 2026-11-01T00:00:00Z. */
  end?: number;
  project?: string;
  /** Called after each table with its name and the seconds it took. */
  onStep?: (table: string, seconds: number) => void;
}

export interface SyntheticWarehouse {
  path: string;
  project: string;
  from: number;
  to: number;
  counts: Record<string, number>;
}

const MESSAGES_PER_SESSION = 10;

/** `INSERT ... SELECT` statements in dependency order, with the options as literals (numbers and a quoted name). */
/** `from` is epoch ms. */
function statements(p: {
  sessions: number;
  from: number;
  spanMs: number;
  project: string;
}): [string, string][] {
  const project = `'${p.project.replaceAll("'", "''")}'`;
  const clients = Math.max(1, Math.floor(p.sessions * 0.3));
  const stepMs = Math.max(1, Math.floor(p.spanMs / p.sessions));
  // epoch microseconds: sessions start on an even grid over the span
  const sessionStart = `make_timestamptz((${p.from}::BIGINT + i * ${stepMs}::BIGINT) * 1000)`;
  const channel = `['telegram', 'viber', 'vk', 'chatwidget', 'whatsapp'][1 + (hash(i, 'ch') % 5)::INTEGER]`;
  return [
    [
      'sessions',
      `INSERT INTO sessions SELECT ${project}, 's' || i, 'bot-1', ${channel}, 'c' || hash(i, 'cl') % ${clients},
        NULL, NULL, NULL, ${sessionStart}, 60000 + hash(i, 'd') % 3600000, ${MESSAGES_PER_SESSION},
        'question ' || hash(i, 'fq') % 500, 'question ' || hash(i, 'lq') % 500, hash(i, 'lc') % 20 = 0,
        NULL, NULL, NULL, now() FROM range(${p.sessions}) AS t(i)`,
    ],
    [
      'messages',
      `INSERT INTO messages (project, question_id, session_id, "timestamp", question, text_answer, event, nlp_class,
          nlp_state, confidence, status, is_livechat, comment, processing_time, exception, operator_id, is_transfer,
          synced_at, channel_type, first_status_at, read_at)
        WITH m AS (
          SELECT s.session_id, s.start_time, s.channel_type, k, hash(s.session_id, k) AS h
          FROM sessions AS s, range(${MESSAGES_PER_SESSION}) AS r(k)
        ),
        st AS (
          SELECT *, CASE
            WHEN channel_type = 'telegram' THEN ['SENT', 'DELIVERED', 'DELIVERED', 'NOT_SENT', 'NOT_DELIVERED'][1 + (h % 5)::INTEGER]
            WHEN channel_type = 'viber' THEN ['DELIVERED', 'READ', 'READ', 'NOT_SENT', 'NOT_DELIVERED'][1 + (h % 5)::INTEGER]
            WHEN channel_type = 'vk' THEN ['SENT', 'DELIVERED', 'READ', 'READ', 'NOT_DELIVERED'][1 + (h % 5)::INTEGER]
          END AS status, start_time + INTERVAL (k * 30) SECOND AS ts
          FROM m
        )
        SELECT ${project}, session_id || '-' || k, session_id, ts, 'question ' || h % 5000, 'answer ' || h % 3000,
          NULL, ['/Greeting', '/Order', '/Refund', '/Delivery', '/CatchAll', '/Operator'][1 + (h % 6)::INTEGER], NULL,
          (h % 1000) / 1000.0, status, false, NULL, h % 900, NULL, NULL, h % 97 = 0, now(), channel_type,
          CASE WHEN status IS NOT NULL THEN ts + INTERVAL 1 MINUTE END,
          CASE WHEN status = 'READ' THEN ts + INTERVAL (1 + h % 240) MINUTE END
        FROM st`,
    ],
    [
      'message_status_history',
      `INSERT INTO message_status_history
        SELECT project, question_id, 'DELIVERED', first_status_at FROM messages WHERE status = 'READ'
        UNION ALL
        SELECT project, question_id, status, coalesce(read_at, first_status_at) FROM messages WHERE status IS NOT NULL`,
    ],
    [
      'message_labels',
      `INSERT INTO message_labels (project, question_id, label_id, label_name, group_name, "timestamp", channel_type)
        SELECT project, question_id, 1 + hash(question_id, 'ml') % 30, 'message label ' || (1 + hash(question_id, 'ml') % 30),
          'group ' || (1 + hash(question_id, 'ml') % 30) % 4, "timestamp", channel_type
        FROM messages WHERE hash(question_id, 'has') % 100 < 15`,
    ],
    [
      'session_labels',
      `INSERT INTO session_labels SELECT project, session_id, 1 + hash(session_id, 'sl') % 20,
          'session label ' || (1 + hash(session_id, 'sl') % 20)
        FROM sessions WHERE hash(session_id, 'hs') % 100 < 30`,
    ],
    [
      'session_data',
      `INSERT INTO session_data
        SELECT project, session_id, 'exp_checkout', ['A', 'B'][1 + (hash(session_id, 'x') % 2)::INTEGER] FROM sessions
          WHERE hash(session_id, 'e') % 2 = 0
        UNION ALL
        SELECT project, session_id, 'city', 'city ' || hash(session_id, 'c') % 50 FROM sessions`,
    ],
    [
      'clients',
      `INSERT INTO clients (project, client_id, channel_type, bot_id, join_date, last_visit_date, is_blocked, synced_at)
        SELECT project, client_id, any_value(channel_type), 'bot-1', min(start_time), max(start_time), false, now()
        FROM sessions GROUP BY project, client_id`,
    ],
    [
      'catalogues',
      `INSERT INTO session_label_catalogue SELECT ${project}, i, 'session label ' || i, i FROM range(1, 21) AS t(i);
       INSERT INTO message_label_catalogue SELECT ${project}, i, 'message label ' || i, i, i % 4, 'group ' || i % 4, i % 4
         FROM range(1, 31) AS t(i);
       INSERT INTO experiments VALUES (${project}, 'checkout', 'checkout page', 'ACTIVE', ['A', 'B'], NULL, now())`,
    ],
  ];
}

/** Creates the warehouse file at options.path; returns its window and row counts. */
export async function buildSyntheticWarehouse(
  options: SyntheticWarehouseOptions,
): Promise<SyntheticWarehouse> {
  const messages = options.messages ?? 10_000_000;
  const days = options.days ?? 30;
  const to = options.end ?? Date.UTC(2026, 10, 1);
  const from = to - days * 86_400_000;
  const project = options.project ?? 'bench';
  const sessions = Math.max(1, Math.floor(messages / MESSAGES_PER_SESSION));
  for (const file of [options.path, `${options.path}.wal`]) if (existsSync(file)) rmSync(file);

  const instance = await DuckDBInstance.create(options.path);
  const connection = await instance.connect();
  try {
    await runMigrations(connection, { now: () => to });
    for (const [table, sql] of statements({ sessions, from, spanMs: to - from, project })) {
      const started = performance.now();
      await connection.run(sql);
      options.onStep?.(table, (performance.now() - started) / 1000);
    }
    await connection.run('CHECKPOINT');
    const counts: Record<string, number> = {};
    for (const table of [
      'sessions',
      'messages',
      'message_status_history',
      'message_labels',
      'session_labels',
    ]) {
      const reader = await connection.runAndReadAll(`SELECT count(*) FROM ${table}`);
      counts[table] = Number(reader.getRowsJS()[0]?.[0]);
    }
    return { path: options.path, project, from, to, counts };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
