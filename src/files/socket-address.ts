// The address to bind or connect a Unix socket at `path`: the path itself, or, when it is longer than a
// socket address may be (107 bytes on Linux, 103 elsewhere), the path through this process's open descriptor
// of its folder (`/proc/self/fd/<n>/<name>`, Linux), which names the same file. So a socket can live beside
// the file it serves however deep that is. Invariant: the address always resolves to `path`'s own folder.
import { closeSync, existsSync, fstatSync, openSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { EtlError } from '../errors.js';

/** The longest socket path used as it is (below every system's limit). */
export const MAX_SOCKET_PATH_BYTES = 100;

const folderDescriptors = new Map<string, number>();

/** Whether a socket can live at `path` (its address short enough, or reachable through /proc). */
export function canAddressSocket(path: string): boolean {
  return Buffer.byteLength(resolve(path)) <= MAX_SOCKET_PATH_BYTES || existsSync('/proc/self/fd');
}

/** The address of the socket at `path` (see the header); throws when it has none (a long path without /proc). */
export function socketAddress(path: string): string {
  const full = resolve(path);
  if (Buffer.byteLength(full) <= MAX_SOCKET_PATH_BYTES) return full;
  if (!existsSync('/proc/self/fd'))
    throw new EtlError(
      'usage',
      `${full} is too long for a socket (${Buffer.byteLength(full)} bytes, at most ${MAX_SOCKET_PATH_BYTES})`,
      { kind: 'usage' },
    );
  const folder = dirname(full);
  let fd = folderDescriptors.get(folder);
  // a folder removed and made again under the same path is another folder: its own descriptor
  if (fd !== undefined && !sameFile(fd, folder)) {
    closeSync(fd);
    fd = undefined;
  }
  if (fd === undefined) {
    fd = openSync(folder, 'r');
    folderDescriptors.set(folder, fd);
  }
  return `/proc/self/fd/${fd}/${basename(full)}`;
}

function sameFile(fd: number, path: string): boolean {
  try {
    const open = fstatSync(fd);
    const now = statSync(path);
    return open.ino === now.ino && open.dev === now.dev;
  } catch {
    return false;
  }
}
