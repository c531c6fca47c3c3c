// The wire of the read service (read-service.ts): the messages a reader and the writer exchange and their
// framing (a 4-byte length, then the message in V8's serialization, which keeps what JSON would lose: Map,
// Uint8Array, NaN and ±Infinity). One request at a time per connection, answered in order: a value or an
// error, or for a stream any number of chunks and then the end. A frame that is not a message ends the
// connection's reading (its framing is lost). Where the socket lives: read-service-socket.ts.
import type { Socket } from 'node:net';
import { deserialize, serialize } from 'node:v8';
import type { ReadRequest } from './read-request.js';
import type { SqlParams, StreamedRows } from './warehouse.js';

export { readServiceSocketOf } from './read-service-socket.js';

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
export function receiveMessages<T>(
  socket: Socket,
  onMessage: (message: T) => void,
  limits: { maxBytes?: number; onMalformed?: (reason: string) => void } = {},
): void {
  let pending: Buffer = Buffer.alloc(0);
  let broken = false;
  const stop = (reason: string): void => {
    broken = true;
    pending = Buffer.alloc(0);
    socket.pause();
    limits.onMalformed?.(reason);
  };
  socket.on('data', (data: Buffer) => {
    if (broken) return;
    pending = pending.length === 0 ? data : Buffer.concat([pending, data]);
    while (pending.length >= 4) {
      const length = pending.readUInt32BE(0);
      if (limits.maxBytes !== undefined && length > limits.maxBytes)
        return stop(`a message of ${length} bytes, over the ${limits.maxBytes} a reader may send`);
      if (pending.length < 4 + length) break;
      const body = pending.subarray(4, 4 + length);
      pending = pending.subarray(4 + length);
      let message: T;
      try {
        message = deserialize(body) as T;
      } catch (error) {
        return stop(`bytes that are not a message (${(error as Error).message})`);
      }
      onMessage(message);
    }
  });
}
