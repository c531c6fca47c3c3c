// The receiver's connections that serve no request (a header not finished, an idle keep-alive): closed once
// they have done nothing for the header timeout, by a sweep that closes at most 500 a second (each close and
// the reconnection that follows costs the event loop that answers the platform; thousands of slow clients
// that arrived together would otherwise expire together and stall it), and capped: past the cap, a new
// connection makes room by closing the least recently active one, instead of being refused as
// server.maxConnections would. A connection serving a request is never closed here. The cap follows the
// process's file-descriptor limit (ulimit -n).
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The cap's ceiling, and the default where the descriptor limit cannot be read (not Linux). */
const MOST_CONNECTIONS = 10_000;
const FALLBACK_CONNECTIONS = 1_000;
const SWEEP_EVERY_MS = 100;
const SWEEP_AT_MOST = 50;

/** Half the process's open-file limit (the rest for the warehouse, the spool, the logs), at most 10,000. */
export function defaultConnectionCap(limitsFile = '/proc/self/limits'): number {
  try {
    const line = readFileSync(limitsFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.trim().split(/\s+/)[3]);
    if (Number.isFinite(soft) && soft > 0)
      return Math.max(16, Math.min(MOST_CONNECTIONS, Math.floor(soft / 2)));
  } catch {
    // no /proc: the fallback
  }
  return FALLBACK_CONNECTIONS;
}

export interface ConnectionCap {
  /** Connections open now. */
  readonly open: number;
  /** Connections closed to make room or for doing nothing so far. */
  readonly dropped: number;
  /** Closes every connection that serves no request (at stop: a header never finished does not hold it). */
  closeIdle(): void;
}

export function capConnections(server: Server, max: number, idleMs: number): ConnectionCap {
  // insertion order is activity order: a socket goes (back) to the end when it connects or a response ends
  const idle = new Map<Socket, number>();
  const serving = new Map<Socket, number>();
  let dropped = 0;
  // closed without an answer: a client that holds a header unfinished is not worth a write
  const drop = (socket: Socket): void => {
    idle.delete(socket);
    dropped++;
    socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    idle.set(socket, Date.now());
    socket.once('close', () => {
      idle.delete(socket);
      serving.delete(socket);
    });
    if (idle.size + serving.size > max) makeRoom(socket);
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    idle.delete(socket);
    serving.set(socket, (serving.get(socket) ?? 0) + 1);
    response.once('close', () => {
      const left = (serving.get(socket) ?? 1) - 1;
      if (left > 0) return void serving.set(socket, left);
      serving.delete(socket);
      if (!socket.destroyed) idle.set(socket, Date.now());
    });
  });
  const makeRoom = (newcomer: Socket): void => {
    for (const socket of idle.keys())
      if (socket !== newcomer) {
        drop(socket);
        return;
      }
    // every other connection serves a request: the newcomer is the one refused
    newcomer.destroy();
    dropped++;
  };
  const sweep = setInterval(() => {
    const before = Date.now() - idleMs;
    let closed = 0;
    for (const [socket, since] of idle) {
      if (since > before || closed++ >= SWEEP_AT_MOST) break;
      drop(socket);
    }
  }, SWEEP_EVERY_MS);
  sweep.unref();
  server.once('close', () => clearInterval(sweep));
  return {
    get open() {
      return idle.size + serving.size;
    },
    get dropped() {
      return dropped;
    },
    closeIdle() {
      for (const socket of idle.keys()) socket.destroy();
      idle.clear();
    },
  };
}
