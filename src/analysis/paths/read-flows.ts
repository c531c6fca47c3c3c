// Turns the rows of flows.sql (one row per figure, `kind` saying which) into the paths' figures: per channel
// and for every channel together, the totals, every state with its next states, the transitions, the top
// routes; the catch-all questions after each state by cluster; the flow chart's nodes and links. Pure.
import type { PlainRow, PlainValue } from '../../warehouse/warehouse.js';
import type {
  ClusterCount,
  FlowLink,
  FlowNode,
  NextState,
  PathTotals,
  StateFigures,
  TransitionRow,
} from './paths-report.js';

/** The key of every channel together in the maps below. */
export const EVERY_CHANNEL = '';

/** A route before the previous period is known. */
export interface RouteCount {
  route: string;
  states: number;
  sessions: number;
}

export interface FlowFigures {
  /** By channel ('' = every channel). */
  totals: Map<string, PathTotals>;
  states: Map<string, StateFigures[]>;
  transitions: Map<string, TransitionRow[]>;
  routes: Map<string, RouteCount[]>;
  nodes: FlowNode[];
  links: FlowLink[];
  stepSessions: number[];
  /** The catch-all questions right after each state, by cluster of the stored run (every channel). */
  clusters: Map<string, ClusterCount[]>;
}

/** A cluster's rank and label in the stored unhandled run. */
export type ClusterLabels = ReadonlyMap<string, { rank: number; label: string }>;

const count = (v: PlainValue | undefined): number => (typeof v === 'number' ? v : 0);
const text = (v: PlainValue | undefined): string => (v === null || v === undefined ? '' : String(v));
const channelOf = (r: PlainRow): string => (r['every_channel'] === true ? EVERY_CHANNEL : text(r['channel']));

export function ratio(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The totals of a channel with no session. */
export function emptyTotals(): PathTotals {
  return {
    sessions: 0,
    withPath: 0,
    withoutPath: 0,
    endedAfterAnswer: 0,
    endedAfterCatchAll: 0,
    endedWithAgent: 0,
    routes: 0,
  };
}

function stateOf(r: PlainRow): StateFigures {
  const reached = count(r['sessions']);
  const endedAfterAnswer = count(r['ended_end']);
  const endedAfterCatchAll = count(r['ended_catch_all']);
  const agentAfter = count(r['agent_after']);
  const catchAllAfter = count(r['catch_all_after']);
  return {
    state: text(r['state']),
    reached,
    steps: count(r['times']),
    droppedOff: endedAfterAnswer + endedAfterCatchAll,
    dropOffShare: ratio(endedAfterAnswer + endedAfterCatchAll, reached),
    endedAfterAnswer,
    endedAfterCatchAll,
    endedWithAgent: count(r['ended_agent']),
    agentAfter,
    agentAfterShare: ratio(agentAfter, reached),
    catchAllAfter,
    catchAllAfterShare: ratio(catchAllAfter, reached),
    next: [],
    clusters: null,
  };
}

/** Most drop-off first, then most reached, then by name: the order every state list is kept in. */
export function byDropOff<T extends Pick<StateFigures, 'state' | 'droppedOff' | 'reached'>>(
  a: T,
  b: T,
): number {
  return b.droppedOff - a.droppedOff || b.reached - a.reached || (a.state < b.state ? -1 : 1);
}

const bySessions = <T extends { sessions: number; times: number }>(a: T, b: T) =>
  b.sessions - a.sessions || b.times - a.times;

export function readFlows(rows: readonly PlainRow[], labels: ClusterLabels | null): FlowFigures {
  const f: FlowFigures = {
    totals: new Map(),
    states: new Map(),
    transitions: new Map(),
    routes: new Map(),
    nodes: [],
    links: [],
    stepSessions: [],
    clusters: new Map(),
  };
  const totals = (channel: string): PathTotals => {
    let t = f.totals.get(channel);
    if (!t) f.totals.set(channel, (t = emptyTotals()));
    return t;
  };
  for (const r of rows) readRow(f, r, totals, labels);
  finishStates(f, totals, labels !== null);
  return f;
}

function readRow(
  f: FlowFigures,
  r: PlainRow,
  totals: (channel: string) => PathTotals,
  labels: ClusterLabels | null,
): void {
  const channel = channelOf(r);
  switch (r['kind']) {
    case 'state':
      push(f.states, channel, stateOf(r));
      break;
    case 'transition':
      push(f.transitions, channel, {
        from: text(r['state']),
        to: text(r['next']),
        sessions: count(r['sessions']),
        times: count(r['times']),
        share: null,
      });
      break;
    case 'cluster': {
      const id = r['next'] === null ? null : text(r['next']);
      const known = id === null ? undefined : labels?.get(id);
      push(f.clusters, text(r['state']), {
        id,
        rank: known?.rank ?? null,
        label: known?.label ?? null,
        questions: count(r['times']),
        sessions: count(r['sessions']),
      });
      break;
    }
    case 'sessions': {
      const t = totals(channel);
      t.sessions = count(r['sessions']);
      t.withPath = count(r['times']);
      t.withoutPath = t.sessions - t.withPath;
      break;
    }
    case 'node':
      f.nodes.push({
        step: count(r['step']),
        state: text(r['state']),
        sessions: count(r['sessions']),
        ended: count(r['times']),
      });
      f.stepSessions[count(r['step']) - 1] = count(r['extra']);
      break;
    case 'link':
      f.links.push({
        step: count(r['step']),
        from: text(r['state']),
        to: text(r['next']),
        sessions: count(r['sessions']),
      });
      break;
    case 'route':
      push(f.routes, channel, {
        route: text(r['next']),
        states: count(r['step']),
        sessions: count(r['sessions']),
      });
      totals(channel).routes = count(r['extra']);
      break;
  }
}

/**
 * Each state's next states and (with a stored unhandled run) clusters, the lists sorted, the endings summed
 * into the totals.
 */
function finishStates(f: FlowFigures, totals: (channel: string) => PathTotals, withRun: boolean): void {
  for (const [channel, states] of f.states) {
    const byName = new Map(states.map((s) => [s.state, s]));
    for (const t of f.transitions.get(channel) ?? []) {
      const from = byName.get(t.from);
      t.share = ratio(t.sessions, from?.reached ?? 0);
      const next: NextState = { state: t.to, sessions: t.sessions, times: t.times, share: t.share };
      from?.next.push(next);
    }
    const sum = totals(channel);
    for (const s of states) {
      s.next.sort((a, b) => bySessions(a, b) || (a.state < b.state ? -1 : 1));
      sum.endedAfterAnswer += s.endedAfterAnswer;
      sum.endedAfterCatchAll += s.endedAfterCatchAll;
      sum.endedWithAgent += s.endedWithAgent;
      if (channel === EVERY_CHANNEL && withRun) s.clusters = f.clusters.get(s.state) ?? [];
    }
    states.sort(byDropOff);
  }
  for (const list of f.transitions.values())
    list.sort((a, b) => bySessions(a, b) || (a.from + a.to < b.from + b.to ? -1 : 1));
  for (const list of f.routes.values())
    list.sort((a, b) => b.sessions - a.sessions || (a.route < b.route ? -1 : 1));
  for (const list of f.clusters.values())
    list.sort((a, b) => b.questions - a.questions || (a.rank ?? Infinity) - (b.rank ?? Infinity));
  f.nodes.sort((a, b) => a.step - b.step || b.sessions - a.sessions || (a.state < b.state ? -1 : 1));
  f.links.sort((a, b) => a.step - b.step || b.sessions - a.sessions);
}
