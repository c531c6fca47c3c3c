// Where the read service's socket lives, and the checks that keep it its owner's: beside the warehouse when
// that folder is ours and no one else may write to it (a path too long for a socket is reached through the
// folder's descriptor: files/socket-address.ts), else in a per-user folder `<root>/reporter-etl-<uid>` (mode
// 0700, ours, not a symlink; root is /tmp, not TMPDIR or XDG_RUNTIME_DIR, so a cron job and a shell agree),
// and when another user made that one first, in `~/.cache/reporter-etl/sockets` (mode 0700), which no other
// user can make: such a folder is avoided, not obeyed. The writer listens only there; a reader connects only
// to a socket that is ours, mode 0600 at most, in such a folder. Node has no SO_PEERCRED, so the peer is
// known by the socket file, not by its credentials. The folder rule is the one of every folder the tool
// writes in (src/files/folder-trust.ts).
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, type Stats, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { currentUid, modeOf, untrustedFolderReason as unsafeFolderReason } from '../files/folder-trust.js';
import { makeDirectory } from '../files/make-directory.js';
import { canAddressSocket } from '../files/socket-address.js';

export { currentUid };

/** The folder the per-user socket folders are made in (fixed: writer and reader must agree without env). */
export const SOCKET_ROOT = '/tmp';

/** The per-user folder of sockets under `root`. */
export function privateSocketFolderOf(root: string = SOCKET_ROOT): string {
  return join(root, `reporter-etl-${currentUid() ?? 'nobody'}`);
}

/** The private folder of sockets under this user's home: used when another user made the per-user one. */
export function homeSocketFolder(): string {
  return join(homedir(), '.cache', 'reporter-etl', 'sockets');
}

/**
 * The socket a writer serves reads on: beside the warehouse when that folder is safe, else in the per-user
 * folder, or in the home's when another user (or a link) took the per-user folder's name first.
 */
export function readServiceSocketOf(warehousePath: string, root: string = SOCKET_ROOT): string {
  const resolved = resolve(warehousePath);
  const beside = `${resolved}.readers.sock`;
  if (canAddressSocket(beside) && isSafeFolder(dirname(resolved))) return beside;
  const hash = createHash('sha256').update(resolved).digest('hex').slice(0, 24);
  const perUser = privateSocketFolderOf(root);
  return join(isTakenByAnother(perUser) ? homeSocketFolder() : perUser, `${hash}.sock`);
}

/** Whether the name of the per-user folder is held by something this user did not make (a folder, a link). */
function isTakenByAnother(folder: string): boolean {
  try {
    const stats = lstatSync(folder);
    return !stats.isDirectory() || stats.uid !== currentUid();
  } catch {
    return false;
  }
}

/** One of the private folders (mode 0700, never through a link): the per-user one or the home's. */
function isPrivateFolder(folder: string, root: string): boolean {
  return folder === privateSocketFolderOf(root) || folder === homeSocketFolder();
}

/** A folder that is ours and that no one else may write to (it may be reached through a symlink). */
function isSafeFolder(folder: string): boolean {
  try {
    return unsafeFolderReason(statSync(folder), folder, 0o022) === undefined;
  } catch {
    return false;
  }
}

/** Why the folder of `socketPath` cannot hold it: the per-user folder is checked without following a symlink. */
function socketFolderReason(socketPath: string, root: string): string | undefined {
  const folder = dirname(socketPath);
  if (!isPrivateFolder(folder, root)) return unsafeFolderReason(statSync(folder), folder, 0o022);
  return unsafeFolderReason(lstatSync(folder), folder, 0o077);
}

/**
 * The writer's side: makes the private folder when the socket goes there (mode 0700) and checks it.
 * Returns why the socket cannot be served there, or undefined when it can.
 */
export function prepareSocketFolder(socketPath: string, root: string = SOCKET_ROOT): string | undefined {
  if (currentUid() === undefined) return 'this platform has no user ids to check a socket by';
  const folder = dirname(socketPath);
  if (isPrivateFolder(folder, root)) {
    try {
      if (folder === homeSocketFolder()) makeDirectory(dirname(folder));
      mkdirSync(folder, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return (error as Error).message;
    }
  }
  try {
    return socketFolderReason(socketPath, root);
  } catch (error) {
    return (error as Error).message;
  }
}

/** What a reader found at the socket's place: nothing, a socket it trusts, or one it refuses and why. */
export type SocketCheck = { found: false } | { found: true; refused?: string };

/** The reader's side, before connecting: the socket is a socket, ours, mode 0600 at most, in a safe folder. */
export function checkReadServiceSocket(socketPath: string, root: string = SOCKET_ROOT): SocketCheck {
  let stats: Stats;
  try {
    stats = lstatSync(socketPath);
  } catch {
    return { found: false };
  }
  const uid = currentUid();
  if (uid === undefined) return { found: true, refused: 'this platform has no user ids to check it by' };
  if (!stats.isSocket()) return { found: true, refused: 'it is not a socket (a symlink or a file)' };
  if (stats.uid !== uid)
    return { found: true, refused: `it belongs to uid ${stats.uid}, not to this user (uid ${uid})` };
  if ((stats.mode & 0o077) !== 0)
    return { found: true, refused: `its mode ${modeOf(stats)} lets other users connect to it` };
  try {
    const folder = socketFolderReason(socketPath, root);
    return folder ? { found: true, refused: folder } : { found: true };
  } catch (error) {
    return { found: true, refused: (error as Error).message };
  }
}
