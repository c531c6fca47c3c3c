// Reading and replacing small files where someone else may have planted a link: a read opens with O_NOFOLLOW
// and takes a regular file only; a write goes to a new temporary name (O_EXCL: never an existing file or a
// link) and is renamed over the file, which replaces a link rather than writing through it. Invariant: neither
// follows a link at the file's own name, and a reader sees the old file or the new one, never half of one.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';

/** A file that is not a regular file where one was expected (a link, a folder, a device). */
export class NotRegularFileError extends Error {
  constructor(readonly path: string) {
    super(`${path} is not a regular file (a link, a folder or a device), so it is not read`);
    this.name = 'NotRegularFileError';
  }
}

/** The text of the regular file at `path`; a link there fails (ELOOP) rather than being followed. */
export function readRegularFile(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new NotRegularFileError(path);
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile()) throw new NotRegularFileError(path);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` to a new temporary file beside `path` (O_EXCL, mode 0644 at most) and renames it over `path`. */
export function replaceFile(path: string, text: string): void {
  const temporary = `${path}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`;
  const fd = openSync(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
