// Whose spool is whose: a receiver claims its spool by listening on a Unix socket beside it
// (`spool-….sock` next to `spool-….jsonl`) for as long as the spool is its own. The kernel closes a listener
// when its process dies (kill -9 included), and still takes connections for a stopped one (SIGSTOP, a paused
// VM, a swap storm: it queues them), so a refused connection is proof that the writer is gone, whatever the
// clocks say. Invariant: a spool is left behind (to be loaded and removed by another receiver) only when its
// socket refuses, or, a spool without one (an older receiver's), when its process is certainly dead
// (src/process/process-identity.ts); never by the time since it was touched.
import { lstatSync, readdirSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { EtlError } from '../../errors.js';
import { socketAddress as addressOf } from '../../files/socket-address.js';
import { isPidRunning, judgeOwner } from '../../process/process-identity.js';

/** A connection that neither connects nor fails in this long (it never happens) is taken as an answer. */
const PROBE_TIMEOUT_MS = 2_000;

/** The paths of the spools this process claims (a process may run several receivers, on other folders). */
const claimedHere = new Set<string>();

export interface SpoolClaim {
  readonly socketPath: string;
  /** Why the claim no longer holds (its socket closed, or its file removed or replaced), or undefined. */
  lostReason(): string | undefined;
  /** Stops claiming the spool (after its file was removed): closes the socket and removes its file. */
  release(): Promise<void>;
}

/** The socket that claims the spool `spoolName` (of `dir`). */
export function claimSocketName(spoolName: string): string {
  return spoolName.replace(/\.jsonl$/, '.sock');
}

/** Claims spool `name` of `dir` before its file exists: listens on its socket (the caller then makes the file). */
export async function claimSpool(dir: string, name: string): Promise<SpoolClaim> {
  const socketPath = join(dir, claimSocketName(name));
  const server: Server = createServer((connection) => connection.destroy());
  server.unref();
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(socketAddress(dir, claimSocketName(name)), () => {
      server.off('error', failed);
      listening();
    });
  });
  const inode = lstatSync(socketPath).ino;
  const spoolPath = join(dir, name);
  claimedHere.add(spoolPath);
  let released = false;
  return {
    socketPath,
    lostReason() {
      if (released || !server.listening) return 'its claim was released';
      try {
        if (lstatSync(socketPath).ino !== inode) return `its socket ${socketPath} was replaced`;
      } catch {
        return `its socket ${socketPath} was removed`;
      }
      return undefined;
    },
    async release() {
      if (released) return;
      released = true;
      claimedHere.delete(spoolPath);
      // closing a listener removes its socket file (libuv unlinks the path it bound)
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}

/**
 * Whether spool `name` of `dir` is left behind by its writer (see the header): to load and remove. A spool
 * claimed by this process is not; one whose socket answers (a live, or stopped, writer) is not.
 */
export async function isLeftBehind(dir: string, name: string): Promise<boolean> {
  if (claimedHere.has(join(dir, name))) return false;
  let socket: ReturnType<typeof lstatSync> | undefined;
  try {
    socket = lstatSync(join(dir, claimSocketName(name)));
  } catch {
    socket = undefined;
  }
  if (socket?.isSocket()) return (await probe(socketAddress(dir, claimSocketName(name)))) === 'refused';
  return writerIsDead(name);
}

/** A spool without a socket (written by an older receiver): left behind only when its writer is certainly dead. */
function writerIsDead(name: string): boolean {
  const match = /^spool-\d+-(\d+)(?:-(\d+))?\.jsonl$/.exec(name);
  const pid = Number(match?.[1] ?? 0);
  // not claimed here, yet of this pid: a process before this one (a container restarts with the same pid)
  if (pid === process.pid || !isPidRunning(pid)) return true;
  const startTicks = match?.[2] === undefined ? null : Number(match[2]);
  // the spool folder is this host's: its writer is judged as a process of this host
  return judgeOwner({ host: hostname(), pid, bootId: null, startTicks }).state === 'dead';
}

/** What a connection to a claim's socket met: its listener, a refusal (no listener), or nothing to tell. */
function probe(address: string): Promise<'answered' | 'refused'> {
  return new Promise((settle) => {
    const socket = connect(address);
    const done = (verdict: 'answered' | 'refused') => {
      clearTimeout(timer);
      socket.destroy();
      settle(verdict);
    };
    const timer = setTimeout(() => done('answered'), PROBE_TIMEOUT_MS);
    socket.once('connect', () => done('answered'));
    // EAGAIN: the queue of a stopped listener is full; ENOENT: removed meanwhile. Only a refusal is proof.
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? 'refused' : 'answered'),
    );
  });
}

/** Removes the socket of a spool whose writer is gone (after the spool itself), and orphans left by a crash. */
export async function removeDeadClaims(dir: string): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^spool-.*\.sock$/.test(name) || names.includes(name.replace(/\.sock$/, '.jsonl'))) continue;
    if ((await probe(socketAddress(dir, name))) === 'refused') removeSocket(join(dir, name));
  }
}

/** Removes the socket of a spool left behind (its writer is gone: nobody listens on it). */
export function removeClaimSocket(dir: string, spoolName: string): void {
  removeSocket(join(dir, claimSocketName(spoolName)));
}

function removeSocket(socketPath: string): void {
  try {
    if (lstatSync(socketPath).isSocket()) unlinkSync(socketPath);
  } catch {
    // gone already
  }
}

/** The address of socket `name` in `dir` (a deep folder is reached through its descriptor: socket-address.ts). */
function socketAddress(dir: string, name: string): string {
  try {
    return addressOf(join(dir, name));
  } catch (error) {
    throw new EtlError(
      'usage',
      `the webhook spool folder cannot hold its owner sockets: ${(error as Error).message}; use a shorter REPORTER_DATA_DIR`,
      { kind: 'usage', cause: error },
    );
  }
}
