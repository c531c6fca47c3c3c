// Selection of sessions and messages by compiled filters as of a clock time, in the API's order:
// sessions by startTime descending (ties by sessionId), messages by timestamp descending (ties by questionId).
// Results are cached per (filters, clock, state version) so that paging a large window stays cheap.
import type { CompiledFilters } from './filters.js';
import type { ProjectData } from './project-data.js';
import { MAX_SESSION_MS } from './skeleton.js';

export interface MessageRef {
  i: number;
  k: number;
}

/** Sessions hidden for a while (page drift): they exist, but no answer shows them yet. */
export function isWithheld(p: ProjectData, i: number): boolean {
  return p.withheld.has(i);
}

/** The index range of sessions that can match, from the time filters. */
function candidateRange(p: ProjectData, f: CompiledFilters, now: number): [number, number] {
  let from = Number.NEGATIVE_INFINITY;
  let to = now;
  if (f.sessionStart) {
    from = Math.max(from, f.sessionStart[0]);
    to = Math.min(to, f.sessionStart[1]);
  }
  if (f.messageTime) {
    from = Math.max(from, f.messageTime[0] - MAX_SESSION_MS);
    to = Math.min(to, f.messageTime[1]);
  }
  if (from > to) return [0, 0];
  return p.skeleton.sessionsStartingIn(from, to);
}

function messageMatches(p: ProjectData, f: CompiledFilters, i: number, k: number, now: number): boolean {
  if (f.messageTime) {
    const t = p.skeleton.messageTime(i, k);
    if (t < f.messageTime[0] || t > f.messageTime[1]) return false;
  }
  for (const test of f.message) if (!test(p, i, k, now)) return false;
  return true;
}

function sessionMatches(p: ProjectData, f: CompiledFilters, i: number, now: number): boolean {
  if (isWithheld(p, i)) return false;
  for (const test of f.session) if (!test(p, i, now)) return false;
  if (!f.messageTime && f.message.length === 0) return true;
  const visible = p.skeleton.visibleMessageCount(i, now);
  for (let k = 0; k < visible; k++) if (messageMatches(p, f, i, k, now)) return true;
  return false;
}

const cache = new WeakMap<ProjectData, Map<string, unknown>>();

function cached<T>(p: ProjectData, key: string, compute: () => T): T {
  let entries = cache.get(p);
  if (!entries) {
    entries = new Map();
    cache.set(p, entries);
  }
  const hit = entries.get(key) as T | undefined;
  if (hit !== undefined) return hit;
  const value = compute();
  entries.set(key, value);
  if (entries.size > 16) entries.delete(entries.keys().next().value as string);
  return value;
}

/** Matching sessions, newest first. */
export function selectSessions(p: ProjectData, f: CompiledFilters, now: number): Uint32Array {
  return cached(p, `s|${now}|${p.state.version}|${p.withheld.size}|${f.key}`, () => {
    const [lo, hi] = candidateRange(p, f, now);
    const out: number[] = [];
    for (let i = hi - 1; i >= lo; i--) if (sessionMatches(p, f, i, now)) out.push(i);
    return Uint32Array.from(out);
  });
}

/** Matching messages, newest first (ties by questionId). */
export function selectMessages(p: ProjectData, f: CompiledFilters, now: number): MessageRef[] {
  return cached(p, `m|${now}|${p.state.version}|${p.withheld.size}|${f.key}`, () => {
    const [lo, hi] = candidateRange(p, f, now);
    const out: MessageRef[] = [];
    for (let i = lo; i < hi; i++) {
      if (isWithheld(p, i)) continue;
      let sessionOk = true;
      for (const test of f.session) {
        if (!test(p, i, now)) {
          sessionOk = false;
          break;
        }
      }
      if (!sessionOk) continue;
      const visible = p.skeleton.visibleMessageCount(i, now);
      for (let k = 0; k < visible; k++) if (messageMatches(p, f, i, k, now)) out.push({ i, k });
    }
    const sk = p.skeleton;
    out.sort((a, b) => {
      const d = sk.messageTime(b.i, b.k) - sk.messageTime(a.i, a.k);
      if (d !== 0) return d;
      const qa = p.questionId(a.i, a.k);
      const qb = p.questionId(b.i, b.k);
      return qa < qb ? -1 : qa > qb ? 1 : 0;
    });
    return out;
  });
}

/** Clients that match the client-level filters and had a session by `now`, ordered by join date (newest first). */
export function selectClients(p: ProjectData, f: CompiledFilters, now: number): number[] {
  return cached(p, `c|${now}|${p.state.version}|${f.key}`, () => {
    const sk = p.skeleton;
    const out: number[] = [];
    for (let c = sk.clientCreator.length - 1; c >= 0; c--) {
      const first = sk.clientCreator.get(c);
      const joined = sk.start.get(first);
      if (joined > now) continue;
      if (f.clientJoin && (joined < f.clientJoin[0] || joined > f.clientJoin[1])) continue;
      if (f.clientActivity) {
        const last = sk.start.get(p.lastSessionOf(c, now));
        if (last < f.clientActivity[0] || last > f.clientActivity[1]) continue;
      }
      let ok = true;
      for (const test of f.session) {
        if (!test(p, first, now)) {
          ok = false;
          break;
        }
      }
      if (ok) out.push(c);
    }
    return out;
  });
}
