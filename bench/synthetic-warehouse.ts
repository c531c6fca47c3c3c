// Builds a synthetic warehouse of any size entirely in DuckDB SQL from range(), for timing the statistics: the
// real schema (migrations) with the statistics' rollups filled, one project, sessions spread over `days`, ten
// messages each, channels, delivery statuses by the channel rules with their status history, labels,
// sessionData with an experiment, clients and catalogues. Values come from hash() of row numbers: the same
// options give the same warehouse, which cachedSyntheticWarehouse keeps between runs.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { ROLLUPS_MIGRATION } from '../src/warehouse/rebuild-rollups.js';
import { locateMigrationsDir, runMigrations } from '../src/warehouse/run-migrations.js';

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

/**
 * `INSERT ... SELECT` statements in dependency order, with the options as literals (numbers and a quoted name).
 * Every table is generated from range() alone: a message's session (j // 10) gives its channel and start by
 * the sessions' own formulas, so nothing is joined (100M messages took 764 s when they were made by joining
 * the sessions to a range of ten).
 */
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
  const startOf = (i: string) => `make_timestamptz((${p.from}::BIGINT + ${i} * ${stepMs}::BIGINT) * 1000)`;
  const channelOf = (i: string) =>
    `['telegram', 'viber', 'vk', 'chatwidget', 'whatsapp'][1 + (hash(${i}, 'ch') % 5)::INTEGER]`;
  // message j of session j // 10, its k-th (j % 10), thirty seconds apart; h its hash
  const message = `SELECT j // ${MESSAGES_PER_SESSION} AS i, j % ${MESSAGES_PER_SESSION} AS k, hash(j, 'm') AS h,
      ${channelOf(`j // ${MESSAGES_PER_SESSION}`)} AS channel_type,
      ${startOf(`j // ${MESSAGES_PER_SESSION}`)} + INTERVAL (30 * (j % ${MESSAGES_PER_SESSION})) SECOND AS ts,
      's' || (j // ${MESSAGES_PER_SESSION}) || '-' || (j % ${MESSAGES_PER_SESSION}) AS question_id
    FROM range(${p.sessions * MESSAGES_PER_SESSION}) AS t(j)`;
  return [
    [
      'sessions',
      `INSERT INTO sessions SELECT ${project}, 's' || i, 'bot-1', ${channelOf('i')}, 'c' || hash(i, 'cl') % ${clients},
        NULL, NULL, NULL, ${startOf('i')}, 60000 + hash(i, 'd') % 3600000, ${MESSAGES_PER_SESSION},
        'question ' || hash(i, 'fq') % 500, 'question ' || hash(i, 'lq') % 500, hash(i, 'lc') % 20 = 0,
        NULL, NULL, NULL, now() FROM range(${p.sessions}) AS t(i)`,
    ],
    [
      'messages',
      `INSERT INTO messages (project, question_id, session_id, "timestamp", question, text_answer, event, nlp_class,
          nlp_state, confidence, status, is_livechat, comment, processing_time, exception, operator_id, is_transfer,
          synced_at, channel_type, first_status_at, read_at)
        WITH st AS (
          SELECT *, CASE
            WHEN channel_type = 'telegram' THEN ['SENT', 'DELIVERED', 'DELIVERED', 'NOT_SENT', 'NOT_DELIVERED'][1 + (h % 5)::INTEGER]
            WHEN channel_type = 'viber' THEN ['DELIVERED', 'READ', 'READ', 'NOT_SENT', 'NOT_DELIVERED'][1 + (h % 5)::INTEGER]
            WHEN channel_type = 'vk' THEN ['SENT', 'DELIVERED', 'READ', 'READ', 'NOT_DELIVERED'][1 + (h % 5)::INTEGER]
          END AS status
          FROM (${message})
        )
        SELECT ${project}, question_id, 's' || i, ts, 'question ' || h % 5000, 'answer ' || h % 3000,
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
        SELECT ${project}, question_id, 1 + hash(h, 'ml') % 30, 'message label ' || (1 + hash(h, 'ml') % 30),
          'group ' || (1 + hash(h, 'ml') % 30) % 4, ts, channel_type
        FROM (${message}) WHERE hash(h, 'has') % 100 < 15`,
    ],
    [
      'session_labels',
      `INSERT INTO session_labels SELECT ${project}, 's' || i, 1 + hash(i, 'sl') % 20,
          'session label ' || (1 + hash(i, 'sl') % 20)
        FROM range(${p.sessions}) AS t(i) WHERE hash(i, 'hs') % 100 < 30`,
    ],
    [
      'session_data',
      `INSERT INTO session_data
        SELECT ${project}, 's' || i, 'exp_checkout', ['A', 'B'][1 + (hash(i, 'x') % 2)::INTEGER]
          FROM range(${p.sessions}) AS t(i) WHERE hash(i, 'e') % 2 = 0
        UNION ALL
        SELECT ${project}, 's' || i, 'city', 'city ' || hash(i, 'c') % 50 FROM range(${p.sessions}) AS t(i)`,
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

/**
 * The cached warehouse of these options: a folder under `cacheDir` named by a hash of the options, of this
 * file's statements and of the migrations but the rollups' (a change to either builds a new one), holding
 * warehouse.duckdb (so that the CLI can read it as REPORTER_DATA_DIR) and meta.json. A change to the rollups'
 * migration only fills them again (rollupsFingerprint).
 */
export function syntheticCacheFolder(cacheDir: string, options: SyntheticWarehouseOptions): string {
  const p = resolveOptions(options);
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ ...p, path: undefined, onStep: undefined }));
  for (const [, sql] of statements(p)) hash.update(sql);
  const migrations = locateMigrationsDir();
  for (const file of readdirSync(migrations).sort())
    if (!file.startsWith(String(ROLLUPS_MIGRATION).padStart(3, '0')))
      hash.update(readFileSync(join(migrations, file)));
  return join(cacheDir, `synthetic-${p.messages}-${hash.digest('hex').slice(0, 16)}`);
}

/** The rollups' migration as it is now: a cached warehouse filled by another gets them filled again. */
function rollupsFingerprint(): string {
  const dir = locateMigrationsDir();
  const file = readdirSync(dir).find((f) => f.startsWith(String(ROLLUPS_MIGRATION).padStart(3, '0')))!;
  return createHash('sha256')
    .update(readFileSync(join(dir, file)))
    .digest('hex')
    .slice(0, 16);
}

/** Drops the rollups and applies their migration again (it creates and fills them); returns its seconds. */
async function refillRollups(path: string): Promise<number> {
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    return await refillRollupsOn(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function refillRollupsOn(connection: DuckDBConnection): Promise<number> {
  const started = performance.now();
  // any rollup table, of this migration or an earlier one of it
  const reader = await connection.runAndReadAll(
    "SELECT table_name FROM information_schema.tables WHERE table_name LIKE 'stat\\_%' ESCAPE '\\'",
  );
  for (const [table] of reader.getRowsJS()) await connection.run(`DROP TABLE ${String(table)}`);
  await connection.run(`DELETE FROM schema_migrations WHERE version = ${ROLLUPS_MIGRATION}`);
  await runMigrations(connection, { now: () => Date.now() });
  await connection.run('CHECKPOINT');
  return (performance.now() - started) / 1000;
}

function resolveOptions(options: SyntheticWarehouseOptions) {
  const messages = options.messages ?? 10_000_000;
  const days = options.days ?? 30;
  const to = options.end ?? Date.UTC(2026, 10, 1);
  const from = to - days * 86_400_000;
  const project = options.project ?? 'bench';
  const sessions = Math.max(1, Math.floor(messages / MESSAGES_PER_SESSION));
  return { messages, days, to, from, project, sessions, spanMs: to - from };
}

/**
 * The warehouse of `options` from `cacheDir` when it was built before (`built: false`), else built there
 * (under a temporary name, renamed when complete) and kept for the next run.
 */
export async function cachedSyntheticWarehouse(
  cacheDir: string,
  options: Omit<SyntheticWarehouseOptions, 'path'>,
): Promise<SyntheticWarehouse & { built: boolean; refilled?: boolean; seconds: Record<string, number> }> {
  const folder = syntheticCacheFolder(cacheDir, { ...options, path: '' });
  const metaFile = join(folder, 'meta.json');
  if (existsSync(metaFile)) {
    const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
    if (meta.rollups !== rollupsFingerprint()) {
      meta.seconds = { ...meta.seconds, rollups: await refillRollups(meta.path) };
      meta.rollups = rollupsFingerprint();
      writeFileSync(metaFile, JSON.stringify(meta));
      return { ...meta, built: false, refilled: true };
    }
    return { ...meta, built: false };
  }
  const building = `${folder}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const seconds: Record<string, number> = {};
  const built = await buildSyntheticWarehouse({
    ...options,
    path: join(building, 'warehouse.duckdb'),
    onStep: (table, s) => {
      seconds[table] = s;
      options.onStep?.(table, s);
    },
  });
  const meta = { ...built, path: join(folder, 'warehouse.duckdb'), seconds, rollups: rollupsFingerprint() };
  writeFileSync(join(building, 'meta.json'), JSON.stringify(meta));
  rmSync(folder, { recursive: true, force: true });
  renameSync(building, folder);
  return { ...meta, built: true };
}

/**
 * Creates the warehouse file at options.path; returns its window and row counts. The statistics' rollups
 * are filled last, by the statements of their migration (as an upgrade of an existing warehouse fills
 * them): their time is the step `rollups`.
 */
export async function buildSyntheticWarehouse(
  options: SyntheticWarehouseOptions,
): Promise<SyntheticWarehouse> {
  const p = resolveOptions(options);
  for (const file of [options.path, `${options.path}.wal`]) if (existsSync(file)) rmSync(file);

  const instance = await DuckDBInstance.create(options.path);
  const connection = await instance.connect();
  try {
    await runMigrations(connection, { now: () => p.to });
    for (const [table, sql] of statements(p)) {
      const started = performance.now();
      await connection.run(sql);
      options.onStep?.(table, (performance.now() - started) / 1000);
    }
    options.onStep?.('rollups', await refillRollupsOn(connection));
    const counts: Record<string, number> = {};
    for (const table of [
      'sessions',
      'messages',
      'message_status_history',
      'message_labels',
      'session_labels',
      'session_data',
      'stat_sessions',
      'stat_message_quarters',
    ]) {
      const reader = await connection.runAndReadAll(`SELECT count(*) FROM ${table}`);
      counts[table] = Number(reader.getRowsJS()[0]?.[0]);
    }
    return { path: options.path, project: p.project, from: p.from, to: p.to, counts };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
