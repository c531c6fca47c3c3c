// A report's temporary file, `.<id>.<host>.<pid>-<start ticks>.<random>.xlsx.tmp` (or `.html.tmp`) in the output
// folder, and the sweep of the ones a dead writer left (kill -9, power loss) at the start of every report.
// Invariant: a live writer's file is never removed: only files of this host whose writer is dead (not running, a
// zombie, its pid another process's now: src/process/process-identity.ts), or files untouched for a day (an old name
// without a host: pid not running and untouched for 10 minutes).
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../log.js';
import { isPidRunning, judgeOwner, thisProcess } from '../process/process-identity.js';

/** A file of another host (its pid cannot be checked here) is removed only when it has not been written for
 * this long: a live writer touches its file far more often. */
export const STALE_TEMPORARY_MS = 24 * 3_600_000;
/** The old name had no host: its pid is checked here, and the file must also be this old (it may be another
 * host's). */
const STALE_HOSTLESS_MS = 10 * 60_000;

const TEMPORARY =
  /^\.(?<id>[A-Za-z0-9_-]+)\.(?:(?<host>[A-Za-z0-9_-]+)\.)?(?<pid>\d+)(?:-(?<ticks>\d+))?\.[0-9a-f]+\.(?:xlsx|html)\.tmp$/;

/** This host's name as a file name part (anything but letters, digits, `-` and `_` becomes `_`). */
function hostPart(): string {
  return hostname().replace(/[^A-Za-z0-9_-]/g, '_') || 'host';
}

/** The temporary name a report is written under in `outDir` before it is renamed into place. */
export function temporaryFileName(reportId: string, extension: 'xlsx' | 'html' = 'xlsx'): string {
  const { pid, startTicks } = thisProcess();
  const writer = startTicks === null ? String(pid) : `${pid}-${startTicks}`;
  return `.${reportId}.${hostPart()}.${writer}.${randomBytes(4).toString('hex')}.${extension}.tmp`;
}

/** Whether the writer of a file of this host is dead: not running, a zombie, or its pid another process's now. */
function isWriterDead(pid: number, ticks: string | undefined): boolean {
  if (!isPidRunning(pid)) return true;
  const startTicks = ticks === undefined ? null : Number(ticks);
  return judgeOwner({ host: hostname(), pid, bootId: null, startTicks }).state === 'dead';
}

/**
 * Removes the temporary files of dead writers from `outDir`: this host's files whose pid no longer runs, and
 * any temporary file untouched for STALE_TEMPORARY_MS. Never fails the report: a file it cannot read or
 * remove is left (and logged). Returns the names removed.
 */
export function sweepStaleTemporaryFiles(outDir: string, log?: Logger, now = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(outDir);
  } catch {
    return [];
  }
  const host = hostPart();
  const removed: string[] = [];
  for (const name of names) {
    const match = TEMPORARY.exec(name);
    if (!match?.groups) continue;
    const pid = Number(match.groups['pid']);
    const fileHost = match.groups['host'];
    const ours = fileHost === host;
    const ticks = match.groups['ticks'];
    if (ours && pid === process.pid && (ticks === undefined || Number(ticks) === thisProcess().startTicks))
      continue; // this process's own writer (a concurrent report)
    try {
      const path = join(outDir, name);
      const age = now - statSync(path).mtimeMs;
      const dead =
        (ours && isWriterDead(pid, ticks)) ||
        (fileHost === undefined && age >= STALE_HOSTLESS_MS && !isPidRunning(pid));
      if (!dead && age < STALE_TEMPORARY_MS) continue;
      rmSync(path, { force: true });
      removed.push(name);
    } catch (error) {
      log?.warn({ file: name, err: error }, 'report: cannot remove a stale temporary file');
    }
  }
  if (removed.length > 0) log?.info({ outDir, removed }, 'report: removed stale temporary files');
  return removed;
}
