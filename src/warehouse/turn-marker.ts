// The turn marker `<warehouse>.waiting`: a process that cannot get the warehouse file touches it at each
// failed attempt; a writer holding the file sees it and lets go at its next idle moment (and then stays out
// until the waiter got in, at most TURN_MS). DuckDB's file locks do not queue waiters, so without it a
// writer whose operations follow each other closely would keep the others out for minutes. The marker holds
// the waiter's PID and whether it writes: a query sandbox gives way to a writer only (readers share the file).
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

export const TURN_MARKER_SUFFIX = '.waiting';
/** A marker older than this is left over (its writer got in or gave up). */
const FRESH_MS = 1_000;
/** How long a writer that let go stays out for the waiter at most. */
const TURN_MS = 2_000;

export function turnMarkerOf(warehousePath: string): string {
  return `${warehousePath}${TURN_MARKER_SUFFIX}`;
}

/** Who waits: a writer (it needs the file alone) or a reader (it can share it with other readers). */
export type TurnWaiter = 'writer' | 'reader';

/**
 * Says "I wait for the file"; silently nothing in a read-only directory (no writer there to tell). Written
 * beside and renamed over the marker, so a reader never sees it truncated (an empty marker lost the PID).
 */
export function askForTurn(marker: string, waiter: TurnWaiter): void {
  const next = `${marker}.${process.pid}`;
  try {
    writeFileSync(next, `${process.pid} ${waiter}`);
    renameSync(next, marker);
  } catch {
    // a read-only directory
  }
}

/** Removes the marker once the waiter got the file (another waiter touches it again at its next attempt). */
export function withdrawTurnRequest(marker: string): void {
  try {
    unlinkSync(marker);
  } catch {
    // gone already (another waiter got in first), or a read-only directory
  }
}

export function isSomeoneWaiting(marker: string): boolean {
  try {
    return Date.now() - statSync(marker).mtimeMs < FRESH_MS;
  } catch {
    return false;
  }
}

/**
 * The PID of a writer that waits (the marker is fresh and its last waiter writes), else undefined. A marker
 * without the waiter's kind (an older version's) counts as a writer's.
 */
export function waitingWriter(marker: string): number | undefined {
  if (!isSomeoneWaiting(marker)) return undefined;
  try {
    const [pid, waiter] = readFileSync(marker, 'utf8').trim().split(' ');
    if (waiter === 'reader') return undefined;
    const n = Number(pid);
    return Number.isSafeInteger(n) && n > 0 ? n : 0;
  } catch {
    return undefined;
  }
}

/** After letting go: waits until the waiter got in (the marker is gone or stale), at most TURN_MS. */
export async function giveTurn(marker: string): Promise<void> {
  const until = Date.now() + TURN_MS;
  while (isSomeoneWaiting(marker) && Date.now() < until) await sleep(20);
}
