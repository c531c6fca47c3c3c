// Whether a folder can be trusted with what the tool writes in it: no other user may create, replace or link
// files there. The one rule of every folder the tool writes in (the data folder, its reports/, webhooks/,
// platform-reports/, a lake inside it) and of the read socket's folder: the folder belongs to this user and
// has no group or other write bit (a sticky world-writable folder such as /tmp is not trusted: anyone may
// create a file, or a link, in it before we do); every folder above it belongs to this user or root and is
// writable by others only when sticky (else another user could rename it away and put their own in its place).
import { lstatSync, realpathSync, type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { liesInside } from './contained-path.js';

/** The mode bits that let other users write to a folder: group and other write. */
export const OTHERS_WRITE = 0o022;
const STICKY = 0o1000;

/** This process's uid; undefined where the platform has none (nothing is checked by owner there). */
export function currentUid(): number | undefined {
  return process.getuid?.();
}

/** A mode as `chmod` writes it (`0777`, `01777`). */
export function modeOf(stats: Stats): string {
  return `0${(stats.mode & 0o7777).toString(8)}`;
}

/**
 * Why a folder (its stats, followed or not as the caller chose) cannot be trusted: not a folder, another
 * owner, or one of the `forbidden` mode bits set; undefined when it can.
 */
export function untrustedFolderReason(
  stats: Stats,
  folder: string,
  forbidden = OTHERS_WRITE,
): string | undefined {
  const uid = currentUid();
  if (!stats.isDirectory()) return `${folder} is not a folder (a symlink or a file)`;
  if (uid !== undefined && stats.uid !== uid)
    return `the folder ${folder} belongs to uid ${stats.uid}, not to this user (uid ${uid})`;
  if ((stats.mode & forbidden) !== 0)
    return `the folder ${folder} has mode ${modeOf(stats)}: other users may create files in it`;
  return undefined;
}

/** Why a folder above a trusted one lets another user replace what is under it; undefined when it does not. */
function unsafeAboveReason(stats: Stats, folder: string): string | undefined {
  const uid = currentUid();
  if (uid !== undefined && stats.uid !== uid && stats.uid !== 0)
    return `the folder ${folder} above it belongs to uid ${stats.uid}, who may replace what is in it`;
  if ((stats.mode & OTHERS_WRITE) !== 0 && (stats.mode & STICKY) === 0)
    return `the folder ${folder} above it has mode ${modeOf(stats)}: other users may rename what is in it`;
  return undefined;
}

/** The first folder above `path` (up to /) that lets another user replace it, and why. */
function unsafeAbove(path: string): string | undefined {
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    const reason = unsafeAboveReason(statSync(folder), folder);
    if (reason !== undefined) return reason;
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * Why the existing folder `folder` is not trusted with the tool's files (undefined: it is). It may be reached
 * through a link: the folder it leads to is judged, and the folders above it, on both paths.
 */
export function folderTrustProblem(folder: string): string | undefined {
  if (currentUid() === undefined) return undefined;
  const given = resolve(folder);
  const real = realpathSync(given);
  const named = real === given ? given : `${given} (${real})`;
  return (
    untrustedFolderReason(statSync(real), named) ??
    unsafeAbove(real) ??
    (real === given ? undefined : unsafeAbove(given))
  );
}

/**
 * Why the file `path` in the trusted folder `folder` would lead a write out of it: a link to somewhere
 * outside the folder, or one pointing nowhere (a write would create its target); undefined otherwise.
 */
export function linkOutReason(path: string, folder: string): string | undefined {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return undefined; // not there: made by the tool, in the folder
  }
  if (!stats.isSymbolicLink()) return undefined;
  let target: string;
  try {
    target = realpathSync(path);
  } catch {
    return `${path} is a link that points nowhere: writing it would create the file it names`;
  }
  return liesInside(realpathSync(folder), target)
    ? undefined
    : `${path} is a link to ${target}, outside ${folder}: the tool would write there`;
}
