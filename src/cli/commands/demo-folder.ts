// The demo's folder rules: the demo writes only into a folder of its own (new, empty, or marked by an earlier
// demo) and never removes anything it did not make. The marker file lists what it wrote, with the folder's
// real path; a folder holding anything else (or a copied or older marker) is refused before anything changes.
// Kept apart from the demo's flow so that a refusal answers without loading DuckDB, exceljs and the emulator.

import { readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { UsageError } from '../../errors.js';
import { makeDirectory } from '../../files/make-directory.js';
import { TRUSTED_FOLDER_MODE } from '../../files/trusted-folder.js';

/**
 * The file that marks a folder the demo made, and lists (its manifest) every file and folder the demo wrote
 * there: a rerun removes exactly those, and refuses the folder if it holds anything else.
 */
export const DEMO_MARKER = '.reporter-etl-demo';

/** DuckDB's (and the warehouse's) transient siblings of a warehouse file: `<file>.wal` etc. */
const TRANSIENT_FILES = ['.wal', '.waiting'];
const TRANSIENT_FOLDER = '.tmp';
const SHOWN_FOREIGN = 5;

/** Whether `inner` is `outer` or lies inside it. */
function isWithin(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/**
 * What the demo wrote into its folder: paths relative to it with `/` separators, folders ending in `/`.
 * Kept in the marker file with the folder's real path, so a marker copied into another folder lists nothing.
 */
export interface DemoManifest {
  folder: string;
  created: Set<string>;
}

function writeManifest(dir: string, manifest: DemoManifest): void {
  const body = {
    note:
      'Made by `reporter-etl demo`. A rerun removes exactly the files and folders listed in "created", ' +
      'and refuses this folder if it holds anything else.',
    folder: manifest.folder,
    created: [...manifest.created].sort(),
  };
  writeFileSync(join(dir, DEMO_MARKER), `${JSON.stringify(body, null, 2)}\n`);
}

/** A relative path the manifest may list: no `..`, no absolute path, no empty part. */
function isSafeEntry(entry: string): boolean {
  const parts = (entry.endsWith('/') ? entry.slice(0, -1) : entry).split('/');
  return parts.every((part) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\'));
}

/** The marker's manifest, or undefined for an older demo's marker (text), a damaged or a foreign one. */
function readManifest(dir: string): DemoManifest | undefined {
  try {
    const body = JSON.parse(readFileSync(join(dir, DEMO_MARKER), 'utf8')) as unknown;
    if (typeof body !== 'object' || body === null) return undefined;
    const { folder, created } = body as { folder?: unknown; created?: unknown };
    if (typeof folder !== 'string' || !Array.isArray(created)) return undefined;
    if (!created.every((e): e is string => typeof e === 'string' && isSafeEntry(e))) return undefined;
    return { folder, created: new Set(created) };
  } catch {
    return undefined;
  }
}

/** Every file and folder under `dir` (folders end in `/`), without following symbolic links; not the marker. */
function listTree(dir: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    if (path === DEMO_MARKER) continue;
    if (entry.isDirectory()) found.push(`${path}/`, ...listTree(dir, `${path}/`));
    else found.push(path);
  }
  return found;
}

/** Adds what is now in the demo's folder to its manifest and saves it: everything there is the demo's. */
export function recordCreated(dir: string, manifest: DemoManifest, expected: string[] = []): void {
  for (const path of [...expected, ...listTree(dir)]) manifest.created.add(path);
  writeManifest(dir, manifest);
}

/** Whether `path` is a transient sibling (`.wal`, `.waiting`, `.tmp/`) of a listed warehouse file. */
function isTransient(path: string, listed: Set<string>): boolean {
  const isFolder = path.endsWith('/');
  const name = isFolder ? path.slice(0, -1) : path;
  const suffixes = isFolder ? [TRANSIENT_FOLDER] : TRANSIENT_FILES;
  return suffixes.some((suffix) => {
    const base = name.slice(0, -suffix.length);
    return name.endsWith(suffix) && base.endsWith('.duckdb') && listed.has(base);
  });
}

/**
 * Sorts what is in an earlier demo's folder into what the demo listed (or DuckDB's transient files beside
 * a listed warehouse file, with their contents) and what it did not write. No symbolic link is followed:
 * a link is an entry of its own, listed or not.
 */
function sortDemoDir(dir: string, listed: Set<string>): { ours: string[]; foreign: string[] } {
  const ours: string[] = [];
  const foreign: string[] = [];
  const visit = (prefix: string): void => {
    for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
      const path = `${prefix}${entry.name}${entry.isDirectory() ? '/' : ''}`;
      if (path === DEMO_MARKER) continue;
      if (isTransient(path, listed)) {
        ours.push(path, ...(entry.isDirectory() ? listTree(dir, path) : []));
      } else if (!listed.has(path)) foreign.push(path);
      else {
        ours.push(path);
        if (entry.isDirectory()) visit(path);
      }
    }
  };
  visit('');
  return { ours, foreign };
}

/** Removes the demo's own paths: files first, then folders deepest first, each only if empty. */
function removeOwn(dir: string, paths: string[]): void {
  const local = (path: string) => join(dir, ...path.replace(/\/$/, '').split('/'));
  for (const path of paths.filter((p) => !p.endsWith('/'))) rmSync(local(path), { force: true });
  const folders = paths
    .filter((p) => p.endsWith('/'))
    .sort((a, b) => b.split('/').length - a.split('/').length);
  for (const folder of folders) {
    try {
      rmdirSync(local(folder));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY') throw error;
    }
  }
}

/**
 * Makes `dir` the demo's folder and returns its manifest: creates it, or takes an empty one, marking it; in
 * a folder an earlier demo marked, removes what that demo listed (unless `keep`). A folder holding anything
 * the demo did not write is refused with a UsageError (exit 2) before anything is changed.
 */
export function prepareDemoDir(dir: string, keep: boolean): DemoManifest {
  const option = `--data-dir ${dir}`;
  const refuseForeign = (paths: string[]) => {
    const shown =
      paths.slice(0, SHOWN_FOREIGN).join(', ') +
      (paths.length > SHOWN_FOREIGN ? `, ... (${paths.length} entries)` : '');
    return new UsageError(
      `${option} already holds files the demo did not make (${shown}). The demo may only remove what it ` +
        `created: move them elsewhere or choose another --data-dir (a new or empty folder, or one an earlier ` +
        `demo made: it lists what it wrote in a ${DEMO_MARKER} file there). Nothing was changed.`,
    );
  };
  const fresh = (): DemoManifest => {
    const manifest = { folder: realpathSync(dir), created: new Set<string>() };
    writeManifest(dir, manifest);
    return manifest;
  };
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR')
      throw new UsageError(`${option}: a part of this path is a file, not a folder; choose another folder`);
    if (code !== 'ENOENT')
      throw new UsageError(`${option}: cannot use this folder (${(error as Error).message})`);
    try {
      // its data folder: closed to other users whatever the umask (src/files/folder-trust.ts)
      makeDirectory(dir, TRUSTED_FOLDER_MODE);
    } catch (cause) {
      const reason =
        (cause as NodeJS.ErrnoException).code === 'ENOTDIR' ||
        (cause as NodeJS.ErrnoException).code === 'EEXIST'
          ? 'a part of this path is a file, not a folder'
          : `cannot create it (${(cause as Error).message})`;
      throw new UsageError(`${option}: ${reason}; choose another folder`);
    }
    return fresh();
  }
  if (!isDirectory) throw new UsageError(`${option} is a file, not a folder; choose a folder for the demo`);
  const cwd = realpathSync(process.cwd());
  const real = realpathSync(dir);
  if (cwd !== real && isWithin(cwd, real))
    throw new UsageError(
      `${option} holds the working folder ${cwd}: the demo writes into a folder of its own, ` +
        'e.g. --data-dir ./data/demo. Nothing was changed.',
    );
  const entries = readdirSync(dir);
  if (entries.length === 0) return fresh();
  if (!entries.includes(DEMO_MARKER)) throw refuseForeign(entries);
  const manifest = readManifest(dir);
  if (manifest === undefined || manifest.folder !== real) {
    const why =
      manifest === undefined
        ? `its ${DEMO_MARKER} file does not list what the demo wrote (an older demo's marker, or not one at all)`
        : `its ${DEMO_MARKER} file was made for another folder (${manifest.folder}): copied or moved here`;
    throw new UsageError(
      `${option}: ${why}, so the demo cannot tell its files from yours. Move out what you want to keep and ` +
        'delete the folder, or choose another --data-dir. Nothing was changed.',
    );
  }
  const { ours, foreign } = sortDemoDir(dir, manifest.created);
  if (foreign.length > 0) throw refuseForeign(foreign);
  if (keep) return manifest;
  removeOwn(dir, ours);
  return fresh();
}
