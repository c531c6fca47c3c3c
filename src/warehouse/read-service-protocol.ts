// The wire of the read service (read-service.ts): where its socket lives, the messages a reader and the
// writer exchange, and their framing (a 4-byte length, then the message in V8's serialization, which keeps
// what JSON would lose: Map, Uint8Array, NaN and ±Infinity). One request at a time per connection, answered
// in order: a value or an error, or for a stream any number of chunks and then the end.
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { ReadRequest } from './read-request.js';
import type { SqlParams, StreamedRows } from './warehouse.js';

/** Unix socket paths are limited to 107 bytes; a longer one goes to the temp directory under a hash. */
const MAX_SOCKET_PATH_BYTES = 100;

/** The socket a writer serves reads on: beside the warehouse, or in the temp directory when that is too long. */
export function readServiceSocketOf(warehousePath: string): string {
  const beside = `${resolve(warehousePath)}.readers.sock`;
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH_BYTES) return beside;
  const hash = createHash('sha256').update(resolve(warehousePath)).digest('hex').slice(0, 24);
  return join(tmpdir(), `reporter-etl-${hash}.sock`);
}

/** What a reader sends. `begin`/`end` bracket a hold(): the reads between them see one snapshot. */
export type ReaderMessage =
  | { type: 'read'; request: ReadRequest }
  | { type: 'stream'; sql: string; params?: SqlParams | undefined }
  | { type: 'begin' }
  | { type: 'end' };

export interface WireError {
  message: string;
  /** An EtlError's code and kind, when the writer's error was one. */
  code?: string;
  kind?: string;
}

/** What the writer answers. */
export type WriterMessage =
  | { type: 'value'; value: unknown }
  | { type: 'chunk'; chunk: StreamedRows }
  | { type: 'end' }
  | { type: 'error'; error: WireError };

/** Writes one message; resolves once the socket can take more (backpressure for long streams). */
export function sendMessage(socket: Socket, message: ReaderMessage | WriterMessage): Promise<void> {
  // the other end has gone: nothing to send, nothing to wait for (its 'close' has been emitted already)
  if (socket.destroyed) return Promise.resolve();
  const body = serialize(message);
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(body.length);
  socket.write(head);
  if (socket.write(body)) return Promise.resolve();
  return new Promise((done) => {
    const finish = () => {
      socket.off('drain', finish);
      socket.off('close', finish);
      done();
    };
    socket.on('drain', finish);
    socket.on('close', finish);
  });
}

/** Cuts the bytes of a socket into messages and hands each to `onMessage`. */
export function receiveMessages<T>(socket: Socket, onMessage: (message: T) => void): void {
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => {
    pending = pending.length === 0 ? data : Buffer.concat([pending, data]);
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      if (pending.length < 4 + length) break;
      const body = pending.subarray(4, 4 + length);
      pending = pending.subarray(4 + length);
      onMessage(deserialize(body) as T);
    }
  });
}
