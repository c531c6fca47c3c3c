// The receiver's HTTP server: node:http with limits against slow and hostile clients (a connection must
// start a request within seconds, a whole request arrive within its timeout, a keep-alive connection serves a bounded number of
// requests and idles briefly, a connection cap that makes room instead of refusing), listening on the address
// given; a port that cannot be taken is a usage error naming where the port came from (--port or the setting).
// The door (openWebhookDoor) answers 503 to a request it could not store, and while it stops.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EtlError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { type ConnectionCap, capConnections, defaultConnectionCap } from './connection-cap.js';
import { answer } from './webhook-request-handler.js';

export interface DoorLimits {
  /** A connection serving no request is closed after this long without one (connection-cap.ts's sweep). */
  headersTimeoutMs: number;
  /** A whole request (header and body) must arrive within this (node: 408); also the header's backstop. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** A keep-alive connection is closed after this many requests. */
  maxRequestsPerSocket: number;
  /** Header lines read of a request; the rest are ignored. */
  maxHeadersCount: number;
  /** How often node checks the request timeout. */
  checkEveryMs: number;
}

/** The platform sends its request at once and waits 3 s: a client much slower than that is not the platform. */
export const DOOR_LIMITS: DoorLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxRequestsPerSocket: 1_000,
  maxHeadersCount: 64,
  checkEveryMs: 1_000,
};

export interface WebhookServerOptions {
  host: string;
  port: number;
  /** How the port was given, for the message when it is taken (`--port 8790`, `REPORTER_WEBHOOKS_PORT=8790`). */
  portGivenAs?: string | undefined;
  limits?: Partial<DoorLimits> | undefined;
  /** At most this many connections open (default: from the file-descriptor limit, see connection-cap.ts). */
  maxConnections?: number | undefined;
  onRequest: (request: IncomingMessage, response: ServerResponse) => void;
}

export interface WebhookServer {
  server: Server;
  port: number;
  connections: ConnectionCap;
}

export async function listenWebhookServer(options: WebhookServerOptions): Promise<WebhookServer> {
  const limits = { ...DOOR_LIMITS, ...options.limits };
  const server = createServer(
    {
      // the header timeout is connection-cap.ts's sweep (spread out); node's own check is the backstop
      headersTimeout: limits.requestTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: limits.checkEveryMs,
    },
    options.onRequest,
  );
  server.maxRequestsPerSocket = limits.maxRequestsPerSocket;
  server.maxHeadersCount = limits.maxHeadersCount;
  const connections = capConnections(
    server,
    options.maxConnections ?? defaultConnectionCap(),
    limits.headersTimeoutMs,
  );
  await new Promise<void>((listening, failed) => {
    server.once('error', (error: NodeJS.ErrnoException) => failed(listenError(error, options)));
    server.listen(options.port, options.host, () => listening());
  });
  return { server, port: (server.address() as AddressInfo).port, connections };
}

function listenError(error: NodeJS.ErrnoException, options: WebhookServerOptions): EtlError {
  const given = options.portGivenAs ?? `--port ${options.port}`;
  return error.code === 'EADDRINUSE'
    ? new EtlError('webhooks.port_in_use', `${given}: another process listens on it`, {
        kind: 'usage',
        cause: error,
      })
    : new EtlError(
        'webhooks.listen_failed',
        `cannot listen on ${options.host}:${options.port}: ${error.message}`,
        {
          kind: 'usage',
          cause: error,
        },
      );
}

export interface WebhookDoor {
  readonly port: number;
  /** Stops taking requests (503 meanwhile), closes the idle connections, waits for the requests in flight. */
  close(): Promise<void>;
}

/** The server with the receiver's handler: a request the handler fails (the spool not written) gets 503. */
export async function openWebhookDoor(
  options: Omit<WebhookServerOptions, 'onRequest'> & {
    handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
    log: Logger;
  },
): Promise<WebhookDoor> {
  let inFlight = 0;
  let stopping = false;
  const onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    if (stopping) {
      answer(response, 503, { error: 'stopping', message: 'the receiver is stopping: send again' }, true);
      return;
    }
    inFlight++;
    options
      .handle(request, response)
      .catch((error: unknown) => {
        // the spool could not be written (a full disk): the platform resends what was not acknowledged
        options.log.error({ err: error }, 'webhook request failed: answered 503');
        if (!response.headersSent)
          answer(response, 503, { error: 'unavailable', message: 'could not store the request' });
      })
      .finally(() => {
        inFlight--;
      });
  };
  const { server, port, connections } = await listenWebhookServer({ ...options, onRequest });
  return {
    port,
    async close() {
      stopping = true;
      const stopped = new Promise<void>((done) => server.close(() => done()));
      // a header never finished, an idle keep-alive: nothing to wait for
      connections.closeIdle();
      await stopped;
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 10));
    },
  };
}
