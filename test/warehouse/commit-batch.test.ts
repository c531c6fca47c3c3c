// commitBatch on a real DuckDB file: replace-by-key replaces (the last staged row of a key wins, other keys and
// projects kept; or a whole scope), append appends, state and run counters move with the rows, and a failure at any step rolls
// back everything of the batch, state and counters included. Expected rows are written out by hand.
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Batch, commitBatch, defineBatchTable } from '../../src/warehouse/commit-batch.js';
import { queryRows } from '../../src/warehouse/query-rows.js';
import { runMigrations } from '../../src/warehouse/run-migrations.js';
import { defineStagedTable } from '../../src/warehouse/stage-rows.js';
import type { TableSpec } from '../../src/warehouse/table-spec.js';
import { makeTempDir } from './fixtures.js';

interface Item {
  project: string;
  item_id: string;
  name: string | null;
  size: number;
}
interface Tag {
  project: string;
  item_id: string;
  tag: string;
}
interface Event {
  project: string;
  what: string;
}

const ITEMS: TableSpec = {
  name: 'items',
  key: ['project', 'item_id'],
  write: 'replace-by-key',
  exported: false,
};
const ITEM_TAGS: TableSpec = {
  name: 'item_tags',
  key: ['project', 'item_id', 'tag'],
  write: 'replace-by-key',
  exported: false,
};
const EVENTS: TableSpec = { name: 'events', key: [], write: 'append', exported: false };

const STAGE_ITEMS = defineStagedTable<Item>('stage_items', [
  ['project', 'varchar'],
  ['item_id', 'varchar'],
  ['name', 'varchar'],
  ['size', 'integer'],
]);
const STAGE_TAGS = defineStagedTable<Tag>('stage_item_tags', [
  ['project', 'varchar'],
  ['item_id', 'varchar'],
  ['tag', 'varchar'],
]);
const STAGE_EVENTS = defineStagedTable<Event>('stage_events', [
  ['project', 'varchar'],
  ['what', 'varchar'],
]);

const T1 = new Date(Date.UTC(2026, 0, 1));
const T2 = new Date(Date.UTC(2026, 0, 2));

let temp: ReturnType<typeof makeTempDir>;
let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeEach(async () => {
  temp = makeTempDir();
  instance = await DuckDBInstance.create(`${temp.dir}/warehouse.duckdb`);
  connection = await instance.connect();
  await runMigrations(connection, { now: () => T1.getTime() });
  await connection.run(
    'CREATE TABLE items (project VARCHAR NOT NULL, item_id VARCHAR NOT NULL, name VARCHAR NOT NULL, ' +
      'size INTEGER, synced_at TIMESTAMPTZ)',
  );
  await connection.run('CREATE TABLE item_tags (project VARCHAR, item_id VARCHAR, tag VARCHAR)');
  await connection.run('CREATE TABLE events (project VARCHAR, what VARCHAR, seen_at TIMESTAMPTZ)');
  await connection.run(
    "INSERT INTO etl_runs (run_id, job, started_at, status) VALUES ('run-1', 'test', TIMESTAMPTZ '2026-01-01', 'running')",
  );
});
afterEach(() => {
  connection.closeSync();
  instance.closeSync();
  temp.cleanup();
});

const item = (item_id: string, name: string | null, size: number, project = 'p1'): Item => ({
  project,
  item_id,
  name,
  size,
});

function makeBatch(
  rows: { items?: Item[]; tags?: Tag[]; events?: Event[] },
  at: Date,
  extra: Partial<Batch> = {},
): Batch {
  return {
    tables: [
      defineBatchTable({
        spec: ITEMS,
        stage: STAGE_ITEMS,
        rows: rows.items ?? [],
        constants: { synced_at: at },
      }),
      // an item's tags are replaced whole for every item of the batch, even one staged without tags
      defineBatchTable({
        spec: ITEM_TAGS,
        stage: STAGE_TAGS,
        rows: rows.tags ?? [],
        replaceKey: ['project', 'item_id'],
        replaceAlso: ['stage_items'],
      }),
      defineBatchTable({
        spec: EVENTS,
        stage: STAGE_EVENTS,
        rows: rows.events ?? [],
        constants: { seen_at: at },
      }),
    ],
    state: [{ project: 'p1', key: 'cursor', value: at.toISOString() }],
    run: { runId: 'run-1', add: (counts) => ({ windows: 1, sessions: counts['items'] ?? 0 }), beatAt: at },
    at,
    ...extra,
  };
}

const fail = (cause: unknown) => new Error('batch failed', { cause });
const read = (sql: string) => queryRows(connection, sql);
const readItems = () =>
  read('SELECT project, item_id, name, size, synced_at FROM items ORDER BY project, item_id');
const readEvents = () => read('SELECT project, what, seen_at FROM events ORDER BY what, seen_at');
const readTags = () => read('SELECT project, item_id, tag FROM item_tags ORDER BY project, item_id, tag');
const readState = () => read('SELECT project, key, value, updated_at FROM etl_state ORDER BY project, key');
const readRun = () => read("SELECT windows, sessions, heartbeat_at FROM etl_runs WHERE run_id = 'run-1'");

describe('commitBatch', () => {
  it('replace-by-key replaces the stored rows of the staged keys, the last staged row of a key winning', async () => {
    await commitBatch(
      connection,
      makeBatch({ items: [item('a', 'apple', 1), item('b', 'bean', 2), item('a', 'other', 9, 'p2')] }, T1),
      fail,
    );
    const counts = await commitBatch(
      connection,
      makeBatch({ items: [item('a', 'avocado', 3), item('c', 'corn', 4), item('a', 'apricot', 5)] }, T2),
      fail,
    );
    expect(await readItems()).toEqual([
      { project: 'p1', item_id: 'a', name: 'apricot', size: 5, synced_at: T2.getTime() },
      { project: 'p1', item_id: 'b', name: 'bean', size: 2, synced_at: T1.getTime() },
      { project: 'p1', item_id: 'c', name: 'corn', size: 4, synced_at: T2.getTime() },
      { project: 'p2', item_id: 'a', name: 'other', size: 9, synced_at: T1.getTime() },
    ]);
    // the rows inserted: one per key
    expect(counts['items']).toBe(2);
  });

  it('replaces by a narrower key where asked: an item staged without tags loses its stored tags', async () => {
    const tag = (item_id: string, t: string): Tag => ({ project: 'p1', item_id, tag: t });
    await commitBatch(
      connection,
      makeBatch(
        {
          items: [item('a', 'apple', 1), item('b', 'bean', 2)],
          tags: [tag('a', 'red'), tag('a', 'sweet'), tag('b', 'green')],
        },
        T1,
      ),
      fail,
    );
    await commitBatch(
      connection,
      makeBatch({ items: [item('a', 'apple', 1)], tags: [tag('b', 'dry')] }, T2),
      fail,
    );
    expect(await readTags()).toEqual([{ project: 'p1', item_id: 'b', tag: 'dry' }]);
  });

  it('replaces every stored row of a scope where asked, even when the batch stages none of it', async () => {
    const scoped = (items: Item[], at: Date): Batch => ({
      tables: [
        defineBatchTable({
          spec: ITEMS,
          stage: STAGE_ITEMS,
          rows: items,
          constants: { synced_at: at },
          replaceScope: { project: 'p1' },
        }),
      ],
      at,
    });
    await commitBatch(connection, scoped([item('a', 'apple', 1), item('b', 'bean', 2)], T1), fail);
    await commitBatch(connection, makeBatch({ items: [item('a', 'other', 9, 'p2')] }, T1), fail);
    await commitBatch(connection, scoped([item('c', 'corn', 3)], T2), fail);
    expect(await readItems()).toEqual([
      { project: 'p1', item_id: 'c', name: 'corn', size: 3, synced_at: T2.getTime() },
      { project: 'p2', item_id: 'a', name: 'other', size: 9, synced_at: T1.getTime() },
    ]);
    await commitBatch(connection, scoped([], T2), fail);
    expect(await readItems()).toEqual([
      { project: 'p2', item_id: 'a', name: 'other', size: 9, synced_at: T1.getTime() },
    ]);
  });

  it('append inserts every staged row, duplicates and all, next to the stored ones', async () => {
    const event: Event = { project: 'p1', what: 'opened' };
    await commitBatch(connection, makeBatch({ events: [event, event] }, T1), fail);
    const counts = await commitBatch(
      connection,
      makeBatch({ events: [event, { project: 'p1', what: 'closed' }] }, T2),
      fail,
    );
    expect(await readEvents()).toEqual([
      { project: 'p1', what: 'closed', seen_at: T2.getTime() },
      { project: 'p1', what: 'opened', seen_at: T1.getTime() },
      { project: 'p1', what: 'opened', seen_at: T1.getTime() },
      { project: 'p1', what: 'opened', seen_at: T2.getTime() },
    ]);
    expect(counts['events']).toBe(2);
  });

  it('sets the state (one row per key) and adds to the run counters in the same commit', async () => {
    await commitBatch(
      connection,
      makeBatch({ items: [item('a', 'apple', 1), item('b', 'bean', 2)] }, T1),
      fail,
    );
    await commitBatch(
      connection,
      makeBatch({ items: [item('a', 'apple', 1), item('a', 'apple', 1)] }, T2),
      fail,
    );
    expect(await readState()).toEqual([
      { project: 'p1', key: 'cursor', value: T2.toISOString(), updated_at: T2.getTime() },
    ]);
    // 2 items, then 1 (a key staged twice is one row)
    expect(await readRun()).toEqual([{ windows: 2, sessions: 3, heartbeat_at: T2.getTime() }]);
  });

  it('a failure at any step rolls back everything of the batch: rows, state and run counters', async () => {
    const tag: Tag = { project: 'p1', item_id: 'a', tag: 'red' };
    await commitBatch(
      connection,
      makeBatch(
        { items: [item('a', 'apple', 1)], tags: [tag], events: [{ project: 'p1', what: 'opened' }] },
        T1,
      ),
      fail,
    );
    const before = {
      items: await readItems(),
      tags: await readTags(),
      events: await readEvents(),
      state: await readState(),
      run: await readRun(),
    };
    const next = {
      items: [item('a', 'avocado', 2), item('b', 'bean', 3)],
      events: [{ project: 'p1', what: 'again' }],
    };
    const failing: Batch[] = [
      // the first table's insert fails (NOT NULL): nothing was written yet
      makeBatch({ ...next, items: [item('a', 'avocado', 2), item('b', null, 3)] }, T2),
      // a statement after every table fails
      makeBatch(next, T2, { after: [{ sql: "SELECT error('boom')" }] }),
      // the run's counters fail (an unknown column), after the rows and the state were written
      makeBatch(next, T2, { run: { runId: 'run-1', add: () => ({ no_such_column: 1 }) } }),
    ];
    for (const batch of failing) {
      const error = await commitBatch(connection, batch, fail).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe('batch failed');
      expect({
        items: await readItems(),
        tags: await readTags(),
        events: await readEvents(),
        state: await readState(),
        run: await readRun(),
      }).toEqual(before);
    }
    expect(before.items).toEqual([
      { project: 'p1', item_id: 'a', name: 'apple', size: 1, synced_at: T1.getTime() },
    ]);
    expect(before.run).toEqual([{ windows: 1, sessions: 1, heartbeat_at: T1.getTime() }]);
  });
});
