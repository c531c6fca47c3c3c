// The writer serves reads: while a process holds the warehouse file read-write, readers (stats, report,
// runs, ...) send their queries over a Unix socket beside the file and the writer runs them on connections of
// its own DuckDB instance, each in a READ ONLY transaction, so they see the last committed data (DuckDB's
// MVCC) without the writer checkpointing, closing and reopening the file for them. The socket is the owner's
// only (mode 0600, in a folder only the owner may write: read-service-socket.ts): another user falls back to
// waiting for the file. Only well-formed messages run, and a reader's SQL only when it is one SELECT of the
// warehouse's data (check-served-sql.ts). A served query ends when its reader goes (its socket closes: the
// query is interrupted) and when the writer lets go of the file. See docs/sync.md, "Readers and writers".
import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { socketAddress } from '../files/socket-address.js';
import type { Logger } from '../log.js';
import { type CheckServedSql, createServedSqlCheck } from './check-served-sql.js';
import { parseReaderMessage } from './parse-reader-message.js';
import { runReadRequest } from './read-request.js';
import {
  type ReaderMessage,
  receiveMessages,
  sendMessage,
  type WireError,
  type WriterMessage,
} from './read-service-protocol.js';
import { prepareSocketFolder, readServiceSocketOf } from './read-service-socket.js';
import { streamRows } from './stream-rows.js';

/** The largest message a reader may send (a latestStatuses of many sessions is a few MB). */
const MAX_READER_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface ReadService {
  /** A reader's request is running, or a reader holds a snapshot (between `begin` and `end`). */
  isBusy(): boolean;
  /**
   * Takes no more readers, lets the running requests finish (at most `maxWaitMs`: a long export is cut
   * there, its query interrupted, and its reader told why), then closes every reader's connection.
   */
  stop(maxWaitMs: number): Promise<void>;
}

interface Reader {
  socket: Socket;
  connection?: DuckDBConnection;
  /** A request of this reader is running. */
  working: boolean;
  /** Between `begin` and `end`: the connection's READ ONLY transaction stays open across requests. */
  holding: boolean;
  /** Messages (as received, not yet checked) that arrived while a request ran (a reader sends one at a time). */
  queue: unknown[];
  /** Set once the reader went while its request ran: the request's statements are interrupted until it ends. */
  interrupting?: NodeJS.Timeout;
}

/**
 * Interrupts the reader's statement now and every 100 ms until its request ends. Once is not enough: a reader
 * that goes while its request still connects, is checked or begins its transaction leaves no statement to
 * interrupt yet, and the query that follows would run on (for hours) and hold the writer.
 */
function interruptUntilDone(reader: Reader): void {
  reader.connection?.interrupt();
  reader.interrupting ??= setInterval(() => reader.connection?.interrupt(), 100).unref();
}

/** Forgets a reader: its socket destroyed, its connection closed. */
function dropReader(readers: Set<Reader>, reader: Reader): void {
  readers.delete(reader);
  reader.socket.destroy();
  reader.connection?.closeSync();
  reader.connection = undefined;
}

/** Serves reads on `instance` at the socket of `warehousePath`; undefined when the socket cannot be made. */
export async function serveReads(options: {
  instance: DuckDBInstance;
  warehousePath: string;
  log?: Logger | undefined;
  /** Where the per-user socket folder is made (read-service-socket.ts; tests give their own). */
  socketRoot?: string | undefined;
  /** The check of readers' SQL; the caller keeps one across reopens (its verdicts and DuckDB's catalog). */
  checkSql?: CheckServedSql | undefined;
}): Promise<ReadService | undefined> {
  const socketPath = readServiceSocketOf(options.warehousePath, options.socketRoot);
  const unsafe = prepareSocketFolder(socketPath, options.socketRoot);
  if (unsafe) {
    options.log?.warn(
      { socketPath },
      `cannot serve reads on ${socketPath}: ${unsafe}; readers will wait for the file`,
    );
    return undefined;
  }
  const checkSql = options.checkSql ?? createServedSqlCheck();
  const readers = new Set<Reader>();
  let stopping = false;
  let idle: (() => void) | undefined;
  const settle = (): void => {
    if (idle && ![...readers].some((r) => r.working)) idle();
  };
  /** Resolves once no reader's request runs. */
  const whenIdle = () =>
    new Promise<void>((done) => {
      idle = done;
      settle();
    });

  const drop = (reader: Reader): void => dropReader(readers, reader);

  /** Drops a reader with no request running, and tells a stop waiting for the requests. */
  const dropIdle = (reader: Reader): void => {
    drop(reader);
    settle();
  };

  const handle = async (reader: Reader, received: unknown): Promise<void> => {
    const reply = (answer: WriterMessage) => sendMessage(reader.socket, answer);
    const parsed = parseReaderMessage(received);
    if (!parsed.ok) return reply({ type: 'error', error: badMessage(parsed.reason) });
    reader.connection ??= await options.instance.connect();
    const refused = await refusalOf(checkSql, reader.connection, parsed.message);
    if (refused) return reply({ type: 'error', error: refused });
    if (reader.socket.destroyed) return;
    await runMessage(reader, reader.connection, parsed.message, reply);
  };

  const work = async (reader: Reader): Promise<void> => {
    if (reader.working) return;
    reader.working = true;
    try {
      while (reader.queue.length > 0) {
        if (reader.socket.destroyed) break;
        await handle(reader, reader.queue.shift());
      }
    } finally {
      reader.working = false;
      clearInterval(reader.interrupting);
      if (stopping || reader.socket.destroyed) drop(reader);
      settle();
    }
  };

  const server: Server = createServer((socket) => {
    if (stopping) {
      socket.destroy();
      return;
    }
    const reader: Reader = { socket, working: false, holding: false, queue: [] };
    readers.add(reader);
    socket.unref();
    socket.on('error', () => undefined);
    // the reader went (it ended, broke off, or was killed): its query must not run on and hold the writer
    socket.on('close', () => (reader.working ? interruptUntilDone(reader) : dropIdle(reader)));
    const onMessage = (message: unknown): void => {
      if (stopping && !reader.working) {
        // the writer is letting go of the file: the reader reads it itself (read-service-client.ts)
        dropIdle(reader);
        return;
      }
      reader.queue.push(message);
      void work(reader);
    };
    receiveMessages<unknown>(socket, onMessage, {
      maxBytes: MAX_READER_MESSAGE_BYTES,
      // the framing is lost: this reader gets the error, then its connection ends (the others go on)
      onMalformed: (reason) =>
        void sendMessage(socket, { type: 'error', error: badMessage(reason) }).then(() => socket.end()),
    });
  });
  server.unref();

  removeStaleSocket(socketPath);
  try {
    await listenPrivately(server, socketPath);
  } catch (error) {
    server.close();
    options.log?.debug({ err: error, socketPath }, 'cannot serve reads: readers will wait for the file');
    return undefined;
  }

  return {
    isBusy: () => [...readers].some((r) => r.working || r.holding),
    async stop(maxWaitMs) {
      if (stopping) return;
      stopping = true;
      server.close();
      removeStaleSocket(socketPath);
      await letReadsFinish({ readers, whenIdle, maxWaitMs, log: options.log });
      for (const reader of [...readers]) drop(reader);
    },
  };
}

/**
 * Lets the running requests finish, at most `maxWaitMs`: then the readers' sockets are destroyed and their
 * queries interrupted, and those are waited for (a connection closes only after its request: a moment).
 */
async function letReadsFinish(options: {
  readers: ReadonlySet<Reader>;
  whenIdle: () => Promise<void>;
  maxWaitMs: number;
  log?: Logger | undefined;
}): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const finished = await Promise.race([
    options.whenIdle().then(() => true),
    new Promise<boolean>((done) => {
      timer = setTimeout(() => done(false), options.maxWaitMs);
    }),
  ]);
  clearTimeout(timer);
  if (finished) return;
  options.log?.warn(
    { readers: [...options.readers].filter((r) => r.working).length, waitedMs: options.maxWaitMs },
    'closing the warehouse: a read served to another process did not finish in time and is cut',
  );
  // the socket first (the reader is told by its close, and reads again elsewhere), then the query: DuckDB
  // stops it at its next check, so a runaway query cannot keep the writer past this point
  for (const reader of options.readers) {
    reader.socket.destroy();
    if (reader.working) interruptUntilDone(reader);
  }
  await options.whenIdle();
}

/** One reader's checked message, on its connection: a transaction per request unless it holds one. */
async function runMessage(
  reader: Reader,
  connection: DuckDBConnection,
  message: ReaderMessage,
  reply: (answer: WriterMessage) => Promise<void>,
): Promise<void> {
  try {
    if (message.type === 'begin') {
      if (!reader.holding) await connection.run('BEGIN TRANSACTION READ ONLY');
      reader.holding = true;
      await reply({ type: 'value', value: null });
    } else if (message.type === 'end') {
      if (reader.holding) await connection.run('ROLLBACK');
      reader.holding = false;
      await reply({ type: 'value', value: null });
    } else {
      if (!reader.holding) await connection.run('BEGIN TRANSACTION READ ONLY');
      try {
        await answerRead(reader, connection, message, reply);
      } finally {
        if (!reader.holding) await connection.run('ROLLBACK').catch(() => undefined);
      }
    }
  } catch (error) {
    if (reader.holding) {
      // a failed statement aborts DuckDB's transaction: the snapshot is gone, the reader's hold goes on without
      await connection.run('ROLLBACK').catch(() => undefined);
      reader.holding = false;
    }
    await reply({ type: 'error', error: toWireError(error) });
  }
}

async function answerRead(
  reader: Reader,
  connection: DuckDBConnection,
  message: Extract<ReaderMessage, { type: 'read' | 'stream' }>,
  reply: (answer: WriterMessage) => Promise<void>,
): Promise<void> {
  if (message.type === 'read') {
    await reply({ type: 'value', value: await runReadRequest(connection, message.request) });
    return;
  }
  for await (const chunk of streamRows(connection, message.sql, message.params)) {
    // a reader that broke off its iteration closed the socket: stop reading the result
    if (reader.socket.destroyed) return;
    await reply({ type: 'chunk', chunk });
  }
  await reply({ type: 'end' });
}

/** Why the SQL of a `query` read or a `stream` may not run (undefined: it may, or the message has none). */
async function refusalOf(
  checkSql: CheckServedSql,
  connection: DuckDBConnection,
  message: ReaderMessage,
): Promise<WireError | undefined> {
  const sql = sqlOf(message);
  if (sql === undefined) return undefined;
  try {
    await checkSql(connection, sql);
    return undefined;
  } catch (error) {
    return toWireError(error);
  }
}

/** The reader's own SQL in a message: a stream's, or a `query` or `parquet` read's. */
function sqlOf(message: ReaderMessage): string | undefined {
  if (message.type === 'stream') return message.sql;
  if (message.type !== 'read') return undefined;
  const request = message.request;
  switch (request.op) {
    case 'query':
    case 'parquet':
      return request.sql;
    case 'listRuns':
    case 'countRejects':
    case 'getWatermark':
    case 'latestStatuses':
      return undefined; // SQL of our own, the reader's values bound
  }
}

/**
 * Listens on `socketPath` created with mode 0600 (the umask covers the bind, so no other user can connect in
 * the instant before the chmod), in a folder prepareSocketFolder checked.
 */
async function listenPrivately(server: Server, socketPath: string): Promise<void> {
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    const umask = setUmask(0o177);
    try {
      // a socket beside a deep warehouse is bound through its folder's descriptor (the same file)
      server.listen(socketAddress(socketPath), () => {
        server.off('error', failed);
        listening();
      });
    } finally {
      if (umask !== undefined) setUmask(umask);
    }
  });
  chmodSync(socketPath, 0o600);
}

/** Sets the process's umask and returns the previous one; undefined where it cannot (a worker thread). */
function setUmask(mask: number): number | undefined {
  try {
    return process.umask(mask);
  } catch {
    return undefined;
  }
}

function badMessage(reason: string): WireError {
  return {
    message: `The writer's read service cannot serve this message: ${reason} (a reader and a writer of different versions?)`,
    code: 'warehouse.bad_message',
    kind: 'terminal',
  };
}

/** A socket left by a writer that died: the caller holds the file's lock, so no live writer serves on it. */
function removeStaleSocket(socketPath: string): void {
  try {
    unlinkSync(socketPath);
  } catch {
    // none
  }
}

function toWireError(error: unknown): WireError {
  if (error instanceof EtlError) return { message: error.message, code: error.code, kind: error.kind };
  return { message: error instanceof Error ? error.message : String(error) };
}
