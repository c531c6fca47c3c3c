// The read socket is read-only (issue 30, item 2): each statement a client of the socket once got the writer to
// run (a file read, COPY TO a file, ATTACH of a new file, SET GLOBAL, COMMIT inside a held read and the writes
// after it) is sent over the socket as it is, in a `read` and in a `stream`, with and without a held `begin`;
// each gets a clear error and nothing changed: no file read, written or attached, the memory limit and
// etl_state as they were, no forged table. Malformed messages get an error answer and the writer serves on.
import { existsSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import {
  readServiceSocketOf,
  receiveMessages,
  sendMessage,
  type WriterMessage,
} from '../../src/warehouse/read-service-protocol.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { makeTempDir } from './fixtures.js';

let temp: ReturnType<typeof makeTempDir>;
let writer: Warehouse | undefined;
const clients: Socket[] = [];
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await writer?.close();
  writer = undefined;
  temp.cleanup();
});

/** A raw client of the socket: sends any message (or bytes) and takes the answers one by one. */
async function rawClient(path: string) {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const attempt = connect(readServiceSocketOf(path));
    attempt.once('connect', () => resolve(attempt));
    attempt.once('error', reject);
  });
  clients.push(socket);
  const answers: (WriterMessage | undefined)[] = [];
  const waiting: ((answer: WriterMessage | undefined) => void)[] = [];
  const take = (answer: WriterMessage | undefined) => {
    const waiter = waiting.shift();
    if (waiter) waiter(answer);
    else answers.push(answer);
  };
  receiveMessages<WriterMessage>(socket, take);
  socket.on('close', () => take(undefined));
  socket.on('error', () => undefined);
  const next = () =>
    answers.length > 0
      ? Promise.resolve(answers.shift())
      : new Promise<WriterMessage | undefined>((resolve) => waiting.push(resolve));
  /** Sends one message; the answers up to the end of the request (a value, an error, or a stream's end). */
  const ask = async (message: unknown): Promise<WriterMessage[]> => {
    await sendMessage(socket, message as never);
    const got: WriterMessage[] = [];
    for (;;) {
      const answer = await next();
      if (!answer) return got;
      got.push(answer);
      if (answer.type !== 'chunk') return got;
    }
  };
  return { socket, ask, next };
}

const HOSTILE = (dir: string) => [
  "SELECT read_text('/etc/hostname') AS t",
  "SELECT * FROM read_text('/etc/hostname')",
  "SELECT * FROM '/etc/passwd'",
  "SELECT * FROM read_csv('/etc/passwd')",
  `COPY (SELECT 42 AS x) TO '${dir}/copied.csv'`,
  `ATTACH '${dir}/attached.duckdb' AS evil`,
  "SET GLOBAL memory_limit = '1TB'",
  "SELECT current_setting('memory_limit') AS m",
  'COMMIT',
  'CREATE TABLE forged_table AS SELECT 42 AS x',
  "INSERT INTO etl_state VALUES ('p', 'forged', 'v', now())",
  "SELECT 1 AS x; INSERT INTO etl_state VALUES ('p', 'forged2', 'v', now())",
  'INSTALL spatial',
  "SELECT * FROM query('SELECT 1')",
  'CALL checkpoint()',
];

async function expectNothingChanged(w: Warehouse, dir: string, memoryLimit: unknown): Promise<void> {
  expect(await w.query('SELECT key FROM etl_state ORDER BY key')).toEqual([{ key: 'a' }]);
  expect(
    await w.query("SELECT count(*) AS n FROM duckdb_tables() WHERE table_name = 'forged_table'"),
  ).toEqual([{ n: 0 }]);
  expect(await w.query("SELECT current_setting('memory_limit') AS m")).toEqual([{ m: memoryLimit }]);
  expect(await w.query("SELECT count(*) AS n FROM duckdb_databases() WHERE database_name = 'evil'")).toEqual([
    { n: 0 },
  ]);
  expect(existsSync(`${dir}/copied.csv`)).toBe(false);
  expect(existsSync(`${dir}/attached.duckdb`)).toBe(false);
  expect(readdirSync(dir).filter((name) => !name.startsWith('warehouse.duckdb'))).toEqual([]);
}

describe('a served request is one read statement', () => {
  it('refuses each statement of the issue, in a read and in a stream, held or not, and changes nothing', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    writer = await openWarehouse({ path, lockWaitMs: 3_000 });
    const w = writer;
    await w.hold(async () => {
      await w.query("INSERT INTO etl_state VALUES ('p', 'a', 'v', now())");
      const [{ m: memoryLimit }] = (await w.query("SELECT current_setting('memory_limit') AS m")) as [
        { m: unknown },
      ];
      const client = await rawClient(path);
      for (const held of [false, true]) {
        if (held) expect(await client.ask({ type: 'begin' })).toEqual([{ type: 'value', value: null }]);
        for (const sql of HOSTILE(temp.dir)) {
          for (const message of [
            { type: 'read', request: { op: 'query', sql } },
            { type: 'stream', sql },
          ]) {
            const answers = await client.ask(message);
            const last = answers.at(-1);
            expect(last?.type, `${message.type} ${sql}: ${JSON.stringify(answers)}`).toBe('error');
            if (last?.type !== 'error') continue;
            expect(last.error.code, sql).toBe('warehouse.read_refused');
            expect(last.error.message).toMatch(/serves reads only/);
          }
        }
        if (held) expect(await client.ask({ type: 'end' })).toEqual([{ type: 'value', value: null }]);
        await expectNothingChanged(w, temp.dir, memoryLimit);
      }
      // the same connection still reads
      expect(
        await client.ask({
          type: 'read',
          request: { op: 'query', sql: 'SELECT count(*) AS n FROM etl_state' },
        }),
      ).toEqual([{ type: 'value', value: [{ n: 1 }] }]);
      await expectNothingChanged(w, temp.dir, memoryLimit);
    });
  });

  it('answers malformed messages with an error, and a message that is not one closes only its connection', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    writer = await openWarehouse({ path, lockWaitMs: 3_000 });
    const w = writer;
    await w.hold(async () => {
      const client = await rawClient(path);
      for (const message of [
        { type: 'bogus' },
        { type: 'read', request: { op: 'dropEverything' } },
        { type: 'read', request: { op: 'query', sql: 42 } },
        { type: 'read', request: { op: 'latestStatuses', project: 'p', sessionIds: 'all' } },
        { type: 'read', request: { op: 'listRuns', options: { limit: 'many' } } },
        { type: 'stream', sql: 'SELECT 1 AS x', params: { x: { toString: null } } },
        'just a string',
        null,
      ]) {
        const answers = await client.ask(message);
        expect(answers, JSON.stringify(message)).toHaveLength(1);
        expect(answers[0]).toMatchObject({ type: 'error', error: { code: 'warehouse.bad_message' } });
      }
      // bytes that are no message: the writer answers and closes this connection, and serves the next one
      const broken = await rawClient(path);
      const head = Buffer.alloc(4);
      head.writeUInt32BE(3);
      broken.socket.write(Buffer.concat([head, Buffer.from([0xff, 0x0f, 0x99])]));
      expect(await broken.next()).toMatchObject({ type: 'error', error: { code: 'warehouse.bad_message' } });
      expect(await broken.next()).toBeUndefined();
      const next = await rawClient(path);
      expect(
        await next.ask({
          type: 'read',
          request: { op: 'query', sql: 'SELECT count(*) AS n FROM etl_state' },
        }),
      ).toEqual([{ type: 'value', value: [{ n: 0 }] }]);
    });
  });
});
