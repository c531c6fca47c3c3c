// The schema: migrations create every table of the issue with its columns, are recorded in
// schema_migrations, are not applied twice, and the .sql files are found from the source tree.
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { locateMigrationsDir, readMigrations, runMigrations } from '../../src/warehouse/run-migrations.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { makeTempDir } from './fixtures.js';

const EXPECTED: Record<string, string[]> = {
  sessions: [
    'project',
    'session_id',
    'bot_id',
    'channel_type',
    'client_id',
    'client_first_name',
    'client_last_name',
    'client_username',
    'start_time',
    'duration_ms',
    'question_count',
    'first_question',
    'last_question',
    'is_livechat',
    'session_result',
    'call_task_id',
    'is_call_incoming',
    'synced_at',
  ],
  messages: [
    'project',
    'question_id',
    'session_id',
    'timestamp',
    'question',
    'text_answer',
    'event',
    'nlp_class',
    'nlp_state',
    'confidence',
    'status',
    'is_livechat',
    'comment',
    'processing_time',
    'exception',
    'operator_id',
    'is_transfer',
    'synced_at',
    'channel_type',
    'first_status_at',
    'read_at',
  ],
  session_labels: ['project', 'session_id', 'label_id', 'label_name'],
  message_labels: [
    'project',
    'question_id',
    'label_id',
    'label_name',
    'group_name',
    'timestamp',
    'channel_type',
  ],
  session_data: ['project', 'session_id', 'key', 'value'],
  clients: [
    'project',
    'client_id',
    'channel_type',
    'bot_id',
    'first_name',
    'last_name',
    'username',
    'join_date',
    'last_visit_date',
    'last_session_id',
    'is_blocked',
    'block_reason',
    'blocked_by',
    'block_date',
    'synced_at',
  ],
  experiments: [
    'project',
    'experiment_key',
    'description',
    'status',
    'branches',
    'session_count',
    'synced_at',
  ],
  session_label_catalogue: ['project', 'label_id', 'name', 'priority'],
  message_label_catalogue: [
    'project',
    'label_id',
    'name',
    'priority',
    'group_id',
    'group_name',
    'group_priority',
  ],
  message_status_history: ['project', 'question_id', 'status', 'first_seen_at'],
  etl_runs: [
    'run_id',
    'project',
    'job',
    'trigger',
    'started_at',
    'finished_at',
    'status',
    'windows',
    'sessions',
    'messages',
    'requests',
    'rejects',
    'duration_ms',
    'error',
    'pid',
    'host',
    'heartbeat_at',
    'notification',
    'unknown_values',
    'boot_id',
    'start_ticks',
    'concurrency_reached',
    'throttled',
  ],
  etl_state: ['project', 'key', 'value', 'updated_at'],
  etl_rejects: ['run_id', 'project', 'endpoint', 'record_id', 'raw_json', 'error', 'rejected_at'],
};

const TYPES: Record<string, string> = {
  'sessions.start_time': 'TIMESTAMP WITH TIME ZONE',
  'sessions.duration_ms': 'BIGINT',
  'sessions.question_count': 'INTEGER',
  'sessions.is_livechat': 'BOOLEAN',
  'messages.timestamp': 'TIMESTAMP WITH TIME ZONE',
  'messages.confidence': 'DOUBLE',
  'messages.processing_time': 'INTEGER',
  'experiments.branches': 'VARCHAR[]',
  'message_status_history.first_seen_at': 'TIMESTAMP WITH TIME ZONE',
  'etl_runs.windows': 'INTEGER',
  'etl_runs.requests': 'BIGINT',
  'etl_runs.heartbeat_at': 'TIMESTAMP WITH TIME ZONE',
  'etl_runs.start_ticks': 'BIGINT',
};

let temp: ReturnType<typeof makeTempDir>;
let warehouse: Warehouse | undefined;

beforeEach(() => {
  temp = makeTempDir();
});
afterEach(async () => {
  await warehouse?.close();
  warehouse = undefined;
  temp.cleanup();
});

describe('migrations', () => {
  it('create every table with the listed columns, in order, with the right types', async () => {
    warehouse = await openWarehouse({ path: `${temp.dir}/nested/dir/warehouse.duckdb` });
    const rows = await warehouse.query(
      "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = 'main' " +
        'ORDER BY table_name, ordinal_position',
    );
    const actual: Record<string, string[]> = {};
    for (const row of rows) (actual[String(row['table_name'])] ??= []).push(String(row['column_name']));
    for (const [table, columns] of Object.entries(EXPECTED)) expect(actual[table], table).toEqual(columns);
    for (const [key, type] of Object.entries(TYPES)) {
      const [table, column] = key.split('.');
      const row = rows.find((r) => r['table_name'] === table && r['column_name'] === column);
      expect(row?.['data_type'], key).toBe(type);
    }
  });

  it('are recorded once and not applied again on the next open', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    warehouse = await openWarehouse({ path, now: () => Date.UTC(2025, 0, 1) });
    const first = await warehouse.query(
      'SELECT version, name, applied_at FROM schema_migrations ORDER BY version',
    );
    const files = readMigrations(locateMigrationsDir());
    expect(first.map((r) => r['version'])).toEqual(files.map((m) => m.version));
    expect(first[0]).toEqual({ version: 1, name: 'init', applied_at: Date.UTC(2025, 0, 1) });
    await warehouse.close();
    warehouse = await openWarehouse({ path });
    expect(await warehouse.query('SELECT version FROM schema_migrations')).toHaveLength(files.length);
  });

  it('creates no ART indexes (their WAL replay after a crash is not trusted; see 001_init.sql)', async () => {
    warehouse = await openWarehouse({ path: `${temp.dir}/warehouse.duckdb` });
    expect(await warehouse.query('SELECT index_name FROM duckdb_indexes()')).toEqual([]);
    expect(
      await warehouse.query(
        "SELECT constraint_type FROM duckdb_constraints() WHERE constraint_type IN ('PRIMARY KEY', 'UNIQUE')",
      ),
    ).toEqual([]);
  });

  it('004 gives the messages loaded before it their session’s channel (none without a session)', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const old = `${temp.dir}/migrations-001-003`;
    mkdirSync(old);
    for (const file of ['001_init.sql', '002_platform_report_tasks.sql', '003_label_writes.sql'])
      copyFileSync(`${locateMigrationsDir()}/${file}`, `${old}/${file}`);
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await runMigrations(connection, { dir: old, now: () => Date.UTC(2025, 0, 1) });
    await connection.run(
      "INSERT INTO sessions (project, session_id, channel_type, start_time, synced_at) VALUES ('p', 's1', 'telegram', now(), now())",
    );
    await connection.run(
      'INSERT INTO messages (project, question_id, session_id, "timestamp", synced_at) VALUES ' +
        "('p', 'q1', 's1', now(), now()), ('p', 'q2', 's-gone', now(), now()), ('other', 'q3', 's1', now(), now())",
    );
    connection.closeSync();
    instance.closeSync();
    warehouse = await openWarehouse({ path });
    expect(
      await warehouse.query('SELECT project, question_id, channel_type FROM messages ORDER BY question_id'),
    ).toEqual([
      { project: 'p', question_id: 'q1', channel_type: 'telegram' },
      { project: 'p', question_id: 'q2', channel_type: null },
      { project: 'other', question_id: 'q3', channel_type: null },
    ]);
  });

  it('005 fills first-seen / READ times from the status history and label rows from their message', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const old = `${temp.dir}/migrations-001-004`;
    mkdirSync(old);
    for (const file of readdirSync(locateMigrationsDir()).filter((f) => /^00[1-4]_.*\.sql$/.test(f)))
      copyFileSync(`${locateMigrationsDir()}/${file}`, `${old}/${file}`);
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await runMigrations(connection, { dir: old, now: () => Date.UTC(2025, 0, 1) });
    await connection.run(
      'INSERT INTO messages (project, question_id, session_id, "timestamp", status, channel_type, synced_at) VALUES ' +
        "('p', 'q1', 's1', TIMESTAMPTZ '2025-01-01 10:00:00Z', 'READ', 'vk', now()), " +
        "('p', 'q2', 's1', TIMESTAMPTZ '2025-01-01 11:00:00Z', 'DELIVERED', 'vk', now()), " +
        "('p', 'q3', 's1', TIMESTAMPTZ '2025-01-01 12:00:00Z', NULL, 'chatwidget', now())",
    );
    await connection.run(
      'INSERT INTO message_status_history VALUES ' +
        "('p', 'q1', 'READ', TIMESTAMPTZ '2025-01-01 10:30:00Z'), ('p', 'q1', 'SENT', TIMESTAMPTZ '2025-01-01 10:05:00Z'), " +
        "('p', 'q2', 'DELIVERED', TIMESTAMPTZ '2025-01-01 11:01:00Z'), ('other', 'q1', 'SENT', TIMESTAMPTZ '2025-01-01 09:00:00Z')",
    );
    await connection.run(
      "INSERT INTO message_labels VALUES ('p', 'q1', 7, 'refund', 'billing'), ('p', 'q-gone', 8, 'x', NULL)",
    );
    connection.closeSync();
    instance.closeSync();
    warehouse = await openWarehouse({ path });
    expect(
      await warehouse.query(
        'SELECT question_id, first_status_at, read_at FROM messages ORDER BY question_id',
      ),
    ).toEqual([
      {
        question_id: 'q1',
        first_status_at: Date.UTC(2025, 0, 1, 10, 5),
        read_at: Date.UTC(2025, 0, 1, 10, 30),
      },
      { question_id: 'q2', first_status_at: Date.UTC(2025, 0, 1, 11, 1), read_at: null },
      { question_id: 'q3', first_status_at: null, read_at: null },
    ]);
    expect(
      await warehouse.query(
        'SELECT question_id, "timestamp", channel_type FROM message_labels ORDER BY question_id',
      ),
    ).toEqual([
      { question_id: 'q-gone', timestamp: null, channel_type: null },
      { question_id: 'q1', timestamp: Date.UTC(2025, 0, 1, 10), channel_type: 'vk' },
    ]);
  });

  it('006 keeps the label_writes rows and lets a batch be recorded as sending, finished_at null', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const old = `${temp.dir}/migrations-001-005`;
    mkdirSync(old);
    for (const file of readdirSync(locateMigrationsDir()).filter((f) => /^00[1-5]_.*\.sql$/.test(f)))
      copyFileSync(`${locateMigrationsDir()}/${file}`, `${old}/${file}`);
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await runMigrations(connection, { dir: old, now: () => Date.UTC(2025, 0, 1) });
    const insert = (id: string, status: string, finished: string) =>
      'INSERT INTO label_writes (write_id, run_id, project, target, label_id, label_name, query, batch, batches, ' +
      'requested, already_labelled, missing, written, object_ids, status, started_at, finished_at) VALUES ' +
      `('${id}', 'r', 'p', 'session', 4, 'Спам', 'select 1', 1, 1, 2, 0, 0, 2, ['s1', 's2'], '${status}', ` +
      `TIMESTAMPTZ '2025-01-01 10:00:00Z', ${finished})`;
    await connection.run(insert('r-1', 'success', "TIMESTAMPTZ '2025-01-01 10:00:01Z'"));
    await expect(connection.run(insert('r-2', 'sending', 'NULL'))).rejects.toThrow();
    connection.closeSync();
    instance.closeSync();
    warehouse = await openWarehouse({ path });
    await warehouse.query(insert('r-2', 'sending', 'NULL'));
    await expect(warehouse.query(insert('r-3', 'lost', 'NULL'))).rejects.toThrow(/CHECK/);
    expect(
      await warehouse.query('SELECT write_id, status, object_ids, finished_at FROM label_writes ORDER BY 1'),
    ).toEqual([
      {
        write_id: 'r-1',
        status: 'success',
        object_ids: ['s1', 's2'],
        finished_at: Date.UTC(2025, 0, 1, 10, 0, 1),
      },
      { write_id: 'r-2', status: 'sending', object_ids: ['s1', 's2'], finished_at: null },
    ]);
  });

  it('a new warehouse takes its migrations in one transaction: one failing names itself and leaves none', async () => {
    const dir = `${temp.dir}/migrations-broken`;
    mkdirSync(dir);
    writeFileSync(`${dir}/001_first.sql`, 'CREATE TABLE first_table (a INTEGER);');
    writeFileSync(`${dir}/002_second.sql`, 'CREATE TABLE second_table (a INTEGER);');
    writeFileSync(`${dir}/003_broken.sql`, 'ALTER TABLE no_such_table ADD COLUMN b INTEGER;');
    const instance = await DuckDBInstance.create(`${temp.dir}/warehouse.duckdb`);
    const connection = await instance.connect();
    try {
      await expect(runMigrations(connection, { dir, now: () => 0 })).rejects.toMatchObject({
        code: 'warehouse.migration_failed',
        message: expect.stringMatching(/^Warehouse migration 3_broken failed, so none of .*no_such_table/),
      });
      const tables = await connection.runAndReadAll(
        "SELECT table_name FROM duckdb_tables() WHERE table_name IN ('first_table', 'second_table')",
      );
      expect(tables.getRows()).toEqual([]);
      const recorded = await connection.runAndReadAll('SELECT count(*) FROM schema_migrations');
      expect(recorded.getRows()).toEqual([[0n]]);
      // mended, the next open applies all three
      writeFileSync(`${dir}/003_broken.sql`, 'ALTER TABLE first_table ADD COLUMN b INTEGER;');
      expect(await runMigrations(connection, { dir, now: () => 0 })).toEqual([1, 2, 3]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('refuse a warehouse written by a newer version', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    warehouse = await openWarehouse({ path });
    await warehouse.query("INSERT INTO schema_migrations VALUES (999, 'future', now())");
    await warehouse.close();
    warehouse = undefined;
    await expect(openWarehouse({ path })).rejects.toMatchObject({ code: 'warehouse.schema_newer' });
    // The refused open released the file: it can be opened (and repaired) again.
    const instance = await DuckDBInstance.create(path);
    instance.closeSync();
  });
});
