// A reader's end of the read service (read-service.ts): connects to the socket of the writer that holds the
// warehouse file and sends it read requests one at a time. When the writer lets go of the file (or dies) the
// connection closes: a request that got no answer fails with ReadServiceGone, and the reader reads the file
// itself (open-warehouse.ts). It connects only to a socket it trusts (read-service-socket.ts), and believes
// an error's code only when it is one of ERROR_CODES with one of its kinds.
import { connect, type Socket } from 'node:net';
import { ERROR_CODES, type ErrorCode } from '../error-codes.js';
import type { ErrorKind } from '../errors.js';
import { EtlError } from '../errors.js';
import { socketAddress } from '../files/socket-address.js';
import type { ReadRequest } from './read-request.js';
import {
  type ReaderMessage,
  receiveMessages,
  sendMessage,
  type WireError,
  type WriterMessage,
} from './read-service-protocol.js';
import { checkReadServiceSocket, readServiceSocketOf } from './read-service-socket.js';
import type { SqlParams, StreamedRows } from './warehouse.js';

/** Chunks (about 2,048 rows each) a reader holds before it stops reading the socket. */
const MAX_BUFFERED_ANSWERS = 8;

/** The writer closed the connection before answering: nothing was read, the request can be made elsewhere. */
export class ReadServiceGone extends Error {
  constructor() {
    super('the writer stopped serving reads');
    this.name = 'ReadServiceGone';
  }
}

export interface ReadServiceClient {
  /** The connection is closed: every request fails with ReadServiceGone. */
  readonly closed: boolean;
  read(request: ReadRequest): Promise<unknown>;
  /** The rows of one statement, chunk by chunk; breaking off the iteration closes the connection. */
  stream(sql: string, params?: SqlParams): AsyncGenerator<StreamedRows>;
  begin(): Promise<void>;
  end(): Promise<void>;
  close(): void;
}

export interface ConnectOptions {
  /** Where the per-user socket folder is (read-service-socket.ts; tests give their own). */
  socketRoot?: string | undefined;
  /** A socket is there but not trusted (another user's, open to others, a symlink): the reader reads the file. */
  onRefused?: ((socketPath: string, reason: string) => void) | undefined;
}

/** Connects to the writer serving reads on this warehouse; undefined when none does (or none is trusted). */
export async function connectToReadService(
  warehousePath: string,
  options: ConnectOptions = {},
): Promise<ReadServiceClient | undefined> {
  const socketPath = readServiceSocketOf(warehousePath, options.socketRoot);
  const check = checkReadServiceSocket(socketPath, options.socketRoot);
  if (!check.found) return undefined;
  if (check.refused) {
    options.onRefused?.(socketPath, check.refused);
    return undefined;
  }
  const socket = await new Promise<Socket | undefined>((resolve) => {
    const attempt = connect(socketAddress(socketPath));
    attempt.once('connect', () => {
      attempt.removeAllListeners('error');
      resolve(attempt);
    });
    attempt.once('error', () => resolve(undefined));
  });
  return socket && createClient(socket);
}

function createClient(socket: Socket): ReadServiceClient {
  socket.unref();
  let closed = false;
  /** Answers not yet taken, and the taker waiting for the next one. */
  const answers: WriterMessage[] = [];
  let waiter: ((message: WriterMessage | undefined) => void) | undefined;
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
    waiter?.(undefined);
  });
  receiveMessages<WriterMessage>(socket, (message) => {
    if (waiter) waiter(message);
    else {
      answers.push(message);
      // a reader slower than the writer (an export writing XLSX): the socket stops reading, and the writer's
      // stream waits for it (backpressure) instead of this process holding the whole result
      if (answers.length >= MAX_BUFFERED_ANSWERS) socket.pause();
    }
  });
  const next = (): Promise<WriterMessage> => {
    const ready = answers.shift();
    if (answers.length < MAX_BUFFERED_ANSWERS / 2) socket.resume();
    if (ready) return Promise.resolve(ready);
    if (closed) return Promise.reject(new ReadServiceGone());
    return new Promise((resolve, reject) => {
      waiter = (message) => {
        waiter = undefined;
        if (message) resolve(message);
        else reject(new ReadServiceGone());
      };
    });
  };
  /** Sends one message and takes its single answer; the socket keeps the process alive only meanwhile. */
  const ask = async (message: ReaderMessage): Promise<unknown> => {
    if (closed) throw new ReadServiceGone();
    socket.ref();
    try {
      await sendMessage(socket, message);
      const answer = await next();
      if (answer.type === 'error') throw fromWireError(answer.error);
      if (answer.type !== 'value')
        throw new EtlError(
          'warehouse.query_failed',
          `the writer's read service answered ${answer.type} to ${message.type}: a reader and a writer of different versions?`,
        );
      return answer.value;
    } finally {
      socket.unref();
    }
  };
  return {
    get closed() {
      return closed;
    },
    read: (request) => ask({ type: 'read', request }),
    async *stream(sql, params) {
      if (closed) throw new ReadServiceGone();
      socket.ref();
      let finished = false;
      try {
        await sendMessage(socket, { type: 'stream', sql, params });
        for (;;) {
          const answer = await next();
          if (answer.type === 'error') {
            finished = true;
            throw fromWireError(answer.error);
          }
          if (answer.type === 'end') {
            finished = true;
            return;
          }
          if (answer.type === 'chunk') yield answer.chunk;
        }
      } finally {
        // broken off midway: the rest of the result is not wanted, and the connection cannot be reused
        if (!finished) {
          closed = true;
          socket.destroy();
        }
        socket.unref();
      }
    },
    begin: async () => {
      await ask({ type: 'begin' });
    },
    end: async () => {
      await ask({ type: 'end' });
    },
    close() {
      closed = true;
      socket.destroy();
    },
  };
}

/** The writer's error: an EtlError only with a code of ours and one of its kinds, else a plain Error. */
function fromWireError(error: WireError): Error {
  const message = typeof error?.message === 'string' ? error.message : 'the writer answered an error';
  const code = error?.code;
  if (typeof code !== 'string' || !Object.hasOwn(ERROR_CODES, code)) return new Error(message);
  const kinds: readonly string[] = ERROR_CODES[code as ErrorCode].kinds;
  const kind = typeof error.kind === 'string' && kinds.includes(error.kind) ? error.kind : kinds[0];
  return new EtlError(code as ErrorCode, message, { kind: kind as ErrorKind });
}
