// Creates a folder and its missing parents, like `mkdir -p`. Not fs.mkdirSync(dir, { recursive: true }):
// on Node 20 that call (and fs.promises.mkdir's) spins at full CPU forever when a parent exists but cannot
// hold folders, e.g. a path under /proc: mkdir answers ENOENT for the child and EEXIST for the parent, and
// Node's walk goes back and forth between the two. Here the walk goes up once (stat), then down once
// (mkdir): every failure is thrown with Node's own error (ENOTDIR under a file, EEXIST when the folder is a
// file, EACCES, EROFS, ENOENT where a folder cannot be made), so callers tell them apart by `code`.
import { mkdirSync, type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * Makes `dir` and its missing parents (with `mode`, less the umask; default 0777 less the umask); does nothing
 * when it is a folder already.
 */
export function makeDirectory(dir: string, mode?: number): void {
  const missing: string[] = [];
  let current = resolve(dir);
  let existing: Stats;
  for (;;) {
    try {
      existing = statSync(current);
      break; // an existing entry: the folders below it are made from here (a file makes mkdir fail)
    } catch (error) {
      if (codeOf(error) !== 'ENOENT') throw error;
      const parent = dirname(current);
      if (parent === current) throw error;
      missing.push(current);
      current = parent;
    }
  }
  if (missing.length === 0) {
    if (!existing.isDirectory()) mkdirSync(current, { mode }); // throws EEXIST, as Node's recursive mkdir does
    return;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder, { mode });
    } catch (error) {
      // made meanwhile by another process: fine if it is a folder (a dangling symlink or a file is not)
      if (codeOf(error) !== 'EEXIST' || !isFolder(folder)) throw error;
    }
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
