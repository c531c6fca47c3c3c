// Who owns a piece of work, and whether that owner is still alive: the one place that answers it for every
// owner record (etl_runs, platform_report_tasks, kb_eval_runs, webhook spools, report temporary files). An
// owner is {host, pid, bootId, startTicks}: the kernel's boot id and the process's start time (field 22 of
// /proc/<pid>/stat) make a PID unique on its host. Invariant: only a same-host owner is ever judged here; it is
// 'dead' only when that is certain (PID gone, a zombie, another start time or boot id), else 'alive' or
// 'unknown' (another host, no procfs, a start time not recorded): then the caller's heartbeat rule decides.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface ProcessOwner {
  host: string | null;
  pid: number | null;
  /** /proc/sys/kernel/random/boot_id of the owner's host when it started; null where there is no procfs. */
  bootId: string | null;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot); null where there is no procfs. */
  startTicks: number | null;
}

export type OwnerState = 'alive' | 'dead' | 'unknown';

export interface OwnerVerdict {
  state: OwnerState;
  /** Why, in words that follow "its process (PID n on host)": "is no longer running", "runs on another host". */
  reason: string;
}

/** What a process's stat line says about it: its state letter (field 3) and start time (field 22). */
export interface ProcessStat {
  state: string;
  startTicks: number;
}

const PROC = '/proc';

/**
 * Reads field 3 (state) and field 22 (start time) of `<proc>/<pid>/stat`. The second field (the command in
 * parentheses) may hold spaces and parentheses itself, so the fields are counted after the last ')'.
 * Undefined when the file cannot be read (no such process, or no procfs).
 */
export function readProcessStat(pid: number, proc = PROC): ProcessStat | undefined {
  let text: string;
  try {
    text = readFileSync(`${proc}/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseProcessStat(text);
}

/** Parses one stat line (see readProcessStat); undefined when it is not one. */
export function parseProcessStat(text: string): ProcessStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  // after ") ": field 3 is the first, so field n is at index n - 3
  const fields = text
    .slice(close + 2)
    .trim()
    .split(' ');
  const state = fields[0];
  const startTicks = Number(fields[19]);
  if (!state || !Number.isSafeInteger(startTicks)) return undefined;
  return { state, startTicks };
}

/** The kernel's boot id of this host, or null where there is no procfs (not Linux). */
export function readBootId(proc = PROC): string | null {
  try {
    return readFileSync(`${proc}/sys/kernel/random/boot_id`, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

let self: { bootId: string | null; startTicks: number | null } | undefined;

/** This process as an owner: its host, PID, boot id and start time (the last two null without procfs). */
export function thisProcess(): ProcessOwner & { host: string; pid: number } {
  self ??= { bootId: readBootId(), startTicks: readProcessStat(process.pid)?.startTicks ?? null };
  return { host: hostname(), pid: process.pid, ...self };
}

/** True when a process with this PID exists on this host (EPERM: it runs as another user; a zombie counts). */
export function isPidRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `owner` is alive: 'dead' (certain: same host, and its PID is gone, a zombie, another process, or
 * from before this host restarted), 'alive' (its very process runs), or 'unknown' (another host, no procfs,
 * or no start time recorded): then only the owner's heartbeat can tell.
 */
export function judgeOwner(owner: ProcessOwner, proc = PROC): OwnerVerdict {
  const { host, pid } = owner;
  if (host === null || pid === null || !Number.isSafeInteger(pid) || pid <= 0)
    return { state: 'unknown', reason: 'was not recorded with its host and PID' };
  if (host !== hostname()) return { state: 'unknown', reason: 'runs on another host' };
  const bootId = proc === PROC ? thisProcess().bootId : readBootId(proc);
  if (bootId === null) return { state: 'unknown', reason: 'cannot be checked without /proc' };
  if (owner.bootId !== null && owner.bootId !== bootId)
    return { state: 'dead', reason: 'ran before this host restarted' };
  const stat = readProcessStat(pid, proc);
  if (stat === undefined) {
    // /proc mounted with hidepid hides other users' processes; kill(pid, 0) still tells whether one exists
    if (proc === PROC && isPidRunning(pid))
      return { state: 'unknown', reason: 'runs as another user (its start time cannot be read)' };
    return { state: 'dead', reason: 'is no longer running' };
  }
  if (stat.state === 'Z' || stat.state === 'X')
    return { state: 'dead', reason: 'has exited (a zombie not yet reaped)' };
  if (owner.startTicks === null)
    return { state: 'unknown', reason: 'has a PID that runs, but its start time was not recorded' };
  if (stat.startTicks !== owner.startTicks)
    return { state: 'dead', reason: `is no longer running (PID ${pid} is another process now)` };
  return { state: 'alive', reason: 'is running on this host' };
}
