// A cap on the receiver's open connections that slow clients cannot use to starve the platform: past the cap,
// a new connection makes room by closing the least recently active one that serves no request (a header
// never finished, an idle keep-alive), instead of being refused as server.maxConnections would. Sockets that
// serve a request are never closed for room. The cap follows the process's file-descriptor limit (ulimit -n).
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The cap's ceiling, and the default where the descriptor limit cannot be read (not Linux). */
const MOST_CONNECTIONS = 10_000;
const FALLBACK_CONNECTIONS = 1_000;

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
  /** Connections closed to make room so far. */
  readonly dropped: number;
  /** Closes every connection that serves no request (at stop: a header never finished does not hold it). */
  closeIdle(): void;
}

export function capConnections(server: Server, max: number): ConnectionCap {
  // insertion order is activity order: a socket goes (back) to the end when it connects or a response ends
  const idle = new Map<Socket, true>();
  const serving = new Map<Socket, number>();
  let dropped = 0;
  server.on('connection', (socket: Socket) => {
    idle.set(socket, true);
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
      if (!socket.destroyed) idle.set(socket, true);
    });
  });
  const makeRoom = (newcomer: Socket): void => {
    for (const socket of idle.keys()) {
      if (socket === newcomer) continue;
      idle.delete(socket);
      socket.destroy();
      dropped++;
      return;
    }
    // every other connection serves a request: the newcomer waits for none of them
    newcomer.destroy();
    dropped++;
  };
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
