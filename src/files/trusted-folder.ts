// The check every command makes before it writes in the data folder (REPORTER_DATA_DIR) or a folder inside it
// (reports/, platform-reports/, webhooks/, a lake): the folder trusted by folder-trust.ts's rule, and each
// file the tool opens there by name (the warehouse, its .wal, ...) not a link out of it. Invariant: a folder
// another user can write to is refused before anything is written in it: config.data_dir_unsafe (exit 2),
// saying why and how to fix it. Folders it makes are 0755 whatever the umask allows more.
import { realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EtlError } from '../errors.js';
import { liesInside } from './contained-path.js';
import { folderTrustProblem, linkOutReason } from './folder-trust.js';
import { makeDirectory } from './make-directory.js';

/** The mode of the folders the tool makes for its files: others may read, only the owner writes. */
export const TRUSTED_FOLDER_MODE = 0o755;

export interface TrustedFolderOptions {
  /** The setting that names the folder, or the one it lies in (REPORTER_DATA_DIR). */
  setting: string;
  /** The names of the files the tool opens in it: none may be a link leading out of it. */
  files?: readonly string[];
}

/** Throws config.data_dir_unsafe (exit 2) when another user can write to the existing `folder`, or plant a link. */
export function assertTrustedFolder(folder: string, options: TrustedFolderOptions): void {
  const problem = folderTrustProblem(folder);
  if (problem !== undefined)
    throw new EtlError(
      'config.data_dir_unsafe',
      `${options.setting}: ${problem}. Another user could plant a link there and have this tool overwrite a ` +
        `file of yours, or hand it their data; make the folder yours and closed to others (chmod g-w,o-w ` +
        `${folder}, and chown it to this user), or set ${options.setting} to a folder only you can write to`,
      { kind: 'usage' },
    );
  for (const name of options.files ?? []) {
    const link = linkOutReason(join(folder, name), folder);
    if (link !== undefined)
      throw new EtlError(
        'config.data_dir_unsafe',
        `${options.setting}: ${link}; remove the link (the tool makes the file itself)`,
        { kind: 'usage' },
      );
  }
}

/** Makes `folder` when missing (mode 0755) and checks it as assertTrustedFolder does. */
export function prepareTrustedFolder(folder: string, options: TrustedFolderOptions): void {
  makeDirectory(folder, TRUSTED_FOLDER_MODE);
  assertTrustedFolder(folder, options);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `folder` lies in `dataDir`, as named or where links lead. */
function liesInDataDir(dataDir: string, folder: string): boolean {
  if (liesInside(resolve(dataDir), resolve(folder))) return true;
  try {
    return liesInside(realpathSync(dataDir), realpathSync(folder));
  } catch {
    return false;
  }
}

/**
 * Checks `folder` (reports/, platform-reports/, a lake) as assertTrustedFolder does when it lies in the data
 * folder `dataDir` and is a folder; one the tool makes there later is made 0755 in a folder only this user writes.
 * A folder elsewhere (`--out /shared/reports`) is the user's choice: what is written there goes through a new
 * temporary name and a rename, never through a link at the file's own name.
 */
export function assertTrustedInDataDir(dataDir: string, folder: string): void {
  // a file in its place fails where the folder is made, with its own message
  if (!isFolder(folder) || !liesInDataDir(dataDir, folder)) return;
  assertTrustedFolder(folder, { setting: 'REPORTER_DATA_DIR' });
}
