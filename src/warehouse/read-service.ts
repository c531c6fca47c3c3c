// The writer serves reads: while a process holds the warehouse file read-write, readers (stats, report,
// runs, ...) send their queries over a Unix socket beside the file and the writer runs them on connections of
// its own DuckDB instance, each in a READ ONLY transaction, so they see the last committed data (DuckDB's
// MVCC) without the writer checkpointing, closing and reopening the file for them. The socket is the owner's
// only (mode 0600): another user falls back to waiting for the file. See docs/sync.md, "Readers and writers".
import { chmodSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { runReadRequest } from './read-request.js';
import {
  type ReaderMessage,
  readServiceSocketOf,
  receiveMessages,
  sendMessage,
  type WireError,
  type WriterMessage,
} from './read-service-protocol.js';
import { streamRows } from './stream-rows.js';

export interface ReadService {
  /** A reader's request is running, or a reader holds a snapshot (between `begin` and `end`). */
  isBusy(): boolean;
  /**
   * Takes no more readers, lets the running requests finish (at most `maxWaitMs`: a long export is cut
   * there, and its reader told why), then closes every reader's connection.
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
  /** Messages that arrived while a request ran (a reader sends one at a time; kept for safety). */
  queue: ReaderMessage[];
}

/** Serves reads on `instance` at the socket of `warehousePath`; undefined when the socket cannot be made. */
export async function serveReads(options: {
  instance: DuckDBInstance;
  warehousePath: string;
  log?: Logger | undefined;
}): Promise<ReadService | undefined> {
  const socketPath = readServiceSocketOf(options.warehousePath);
  const readers = new Set<Reader>();
  let stopping = false;
  let idle: (() => void) | undefined;
  const settle = (): void => {
    if (idle && ![...readers].some((r) => r.working)) idle();
  };

  const drop = (reader: Reader): void => {
    readers.delete(reader);
    reader.socket.destroy();
    reader.connection?.closeSync();
    reader.connection = undefined;
  };

  const handle = async (reader: Reader, message: ReaderMessage): Promise<void> => {
    reader.connection ??= await options.instance.connect();
    const connection = reader.connection;
    const reply = (answer: WriterMessage) => sendMessage(reader.socket, answer);
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
          if (message.type === 'read') {
            await reply({ type: 'value', value: await runReadRequest(connection, message.request) });
          } else {
            for await (const chunk of streamRows(connection, message.sql, message.params)) {
              // a reader that broke off its iteration closed the socket: stop reading the result
              if (reader.socket.destroyed) return;
              await reply({ type: 'chunk', chunk });
            }
            await reply({ type: 'end' });
          }
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
  };

  const work = async (reader: Reader): Promise<void> => {
    if (reader.working) return;
    reader.working = true;
    try {
      for (let message = reader.queue.shift(); message; message = reader.queue.shift()) {
        if (reader.socket.destroyed) break;
        await handle(reader, message);
      }
    } finally {
      reader.working = false;
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
    socket.on('close', () => {
      if (!reader.working) {
        drop(reader);
        settle();
      }
    });
    receiveMessages<ReaderMessage>(socket, (message) => {
      if (stopping && !reader.working) {
        // the writer is letting go of the file: the reader reads it itself (read-service-client.ts)
        drop(reader);
        settle();
        return;
      }
      reader.queue.push(message);
      void work(reader);
    });
  });
  server.unref();

  removeStaleSocket(socketPath);
  try {
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      server.listen(socketPath, () => {
        server.off('error', failed);
        listening();
      });
    });
    chmodSync(socketPath, 0o600);
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
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        new Promise<boolean>((done) => {
          idle = () => done(true);
          settle();
        }),
        new Promise<boolean>((done) => {
          timer = setTimeout(() => done(false), maxWaitMs);
        }),
      ]);
      clearTimeout(timer);
      if (!finished) {
        options.log?.warn(
          { readers: [...readers].filter((r) => r.working).length, waitedMs: maxWaitMs },
          'closing the warehouse: a read served to another process did not finish in time and is cut',
        );
        // a request still running on a connection must end before the connection closes: destroying the
        // socket makes a stream stop at its next chunk; the connection closes when its request ends (work())
        for (const reader of readers) reader.socket.destroy();
        await new Promise<void>((done) => {
          idle = done;
          settle();
        });
      }
      for (const reader of [...readers]) drop(reader);
    },
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
