// Paths a folder's owner writes or removes inside it (the Parquet lake): a relative path of plain segments,
// resolved with every link followed and checked to lie inside the folder's own real path. Invariant: neither
// `..`, an absolute path, nor a link planted inside the folder (by anyone who can write to it) leads a write
// or a removal out of it; what is refused is thrown as OutsideFolderError, before anything is touched.
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';

/** A path the caller would have written or removed outside its folder; `reason` says how it gets out. */
export class OutsideFolderError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'OutsideFolderError';
  }
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/** Why `segment` is not one plain folder or file name (undefined: it is one). */
export function unsafeSegmentReason(segment: string): string | undefined {
  if (segment === '') return 'it is empty';
  if (segment === '.' || segment === '..') return `"${segment}" names a folder, not a name in it`;
  if (segment.includes('/') || segment.includes('\\')) return 'it holds a slash';
  if (CONTROL.test(segment)) return 'it holds a control character';
  if (Buffer.byteLength(segment) > 255) return 'it is longer than a file name may be (255 bytes)';
  return undefined;
}

/** Why `path` is not a relative path of plain segments (undefined: it is one). */
export function unsafeRelativePathReason(path: string): string | undefined {
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'it is an absolute path';
  for (const segment of path.split('/')) {
    const reason = unsafeSegmentReason(segment);
    if (reason !== undefined) return `its part "${segment}" is not a plain name: ${reason}`;
  }
  return undefined;
}

/** The real path of `path`'s deepest existing part, with the rest of `path` joined to it. */
function realPathOfDeepestExisting(path: string): string {
  const missing: string[] = [];
  let current = path;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // a dangling link is a part that exists: where it points to decides (it may be made through it)
      if (code === 'ENOENT' && isLink(current))
        throw new OutsideFolderError(path, 'a link on it points nowhere');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const parent = dirname(current);
      if (parent === current) throw error;
      missing.push(basename(current));
      current = parent;
    }
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether `path` is `folder` or lies under it (both real, absolute paths). */
export function liesInside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (!rest.startsWith(`..${sep}`) && rest !== '..' && !rest.startsWith(sep));
}

/**
 * `folder`/`path` once checked: `path` is relative and of plain segments, and where it leads, every link
 * followed, lies strictly inside `folder`'s real path. Throws OutsideFolderError otherwise.
 */
export function resolveInside(folder: string, path: string): string {
  const unsafe = unsafeRelativePathReason(path);
  if (unsafe !== undefined) throw new OutsideFolderError(path, unsafe);
  const realFolder = realpathSync(folder);
  const real = realPathOfDeepestExisting(join(realFolder, path));
  if (real === realFolder || !liesInside(realFolder, real))
    throw new OutsideFolderError(path, `a link on it leads out of ${folder} (to ${real})`);
  return join(realFolder, path);
}
