// Ground truth of the dialog paths: for every session started in a window, its path through the bot's states
// (the NLP states of the messages the bot answered, agents' live-chat messages aside, a repeat once) and how it
// ended, straight from the generator's facts (isSwitch, the catch-all class), never from the code under test;
// and the counts docs/paths.md defines, per state and per move, for every channel together and per channel.
import type { ProjectData } from './project-data.js';
import { FALLBACK_CLASS } from './vocabulary.js';

/** How a path ended: its last step was a regular answer, a catch-all answer or a transfer to an agent. */
export type PathEnding = 'end' | 'catch-all' | 'agent';

export interface SessionPath {
  sessionId: string;
  channel: string;
  /** The states of its steps in order, a repeated state once; empty when the bot answered nothing. */
  states: string[];
  /** null for a session without a step. */
  ending: PathEnding | null;
  lastState: string | null;
}

export interface StateTruth {
  /** Sessions with a step in the state, and its steps. */
  reached: number;
  steps: number;
  /** Sessions whose last step is in the state, by how that step ended. */
  endedAfterAnswer: number;
  endedAfterCatchAll: number;
  endedWithAgent: number;
  /** Sessions in which a step in the state was followed straight by a transfer / a catch-all answer. */
  agentAfter: number;
  catchAllAfter: number;
  /** The catch-all questions right after a step in the state (counting each). */
  catchAllQuestionsAfter: number;
}

export interface PathCounts {
  sessions: number;
  withPath: number;
  states: Record<string, StateTruth>;
  /** `from > to`: sessions that moved from one state straight to the other (at least once), and how often. */
  transitions: Record<string, { sessions: number; times: number }>;
  /** The path's states joined with ' > ': sessions. */
  routes: Record<string, number>;
}

export interface PathTruth {
  paths: SessionPath[];
  all: PathCounts;
  byChannel: Record<string, PathCounts>;
}

interface Step {
  state: string;
  catchAll: boolean;
  transfer: boolean;
}

function stepsOf(p: ProjectData, i: number, now: number, catchAllClass: string): Step[] {
  const steps: Step[] = [];
  const visible = p.skeleton.visibleMessageCount(i, now);
  for (let k = 0; k < visible; k++) {
    const facts = p.messageFacts(i, k);
    if (facts.isLivechat) continue;
    steps.push({
      state: facts.nlpState ?? '/',
      catchAll: facts.nlpClass === catchAllClass,
      transfer: facts.isSwitch,
    });
  }
  return steps;
}

function emptyCounts(): PathCounts {
  return { sessions: 0, withPath: 0, states: {}, transitions: {}, routes: {} };
}

function stateOf(c: PathCounts, state: string): StateTruth {
  c.states[state] ??= {
    reached: 0,
    steps: 0,
    endedAfterAnswer: 0,
    endedAfterCatchAll: 0,
    endedWithAgent: 0,
    agentAfter: 0,
    catchAllAfter: 0,
    catchAllQuestionsAfter: 0,
  };
  return c.states[state];
}

/** Adds one session's steps to the counts. */
function count(c: PathCounts, steps: readonly Step[], path: SessionPath): void {
  c.sessions++;
  if (steps.length === 0) return;
  c.withPath++;
  c.routes[path.states.join(' > ')] = (c.routes[path.states.join(' > ')] ?? 0) + 1;
  const reached = new Set<string>();
  const agentAfter = new Set<string>();
  const catchAllAfter = new Set<string>();
  const moved = new Set<string>();
  steps.forEach((step, n) => {
    stateOf(c, step.state).steps++;
    reached.add(step.state);
    const next = steps[n + 1];
    if (next === undefined) return;
    if (next.transfer) agentAfter.add(step.state);
    if (next.catchAll) {
      catchAllAfter.add(step.state);
      stateOf(c, step.state).catchAllQuestionsAfter++;
    }
    if (next.state !== step.state) {
      const key = `${step.state} > ${next.state}`;
      c.transitions[key] ??= { sessions: 0, times: 0 };
      c.transitions[key].times++;
      moved.add(key);
    }
  });
  for (const s of reached) stateOf(c, s).reached++;
  for (const s of agentAfter) stateOf(c, s).agentAfter++;
  for (const s of catchAllAfter) stateOf(c, s).catchAllAfter++;
  for (const key of moved) c.transitions[key]!.sessions++;
  const last = stateOf(c, path.lastState!);
  if (path.ending === 'agent') last.endedWithAgent++;
  else if (path.ending === 'catch-all') last.endedAfterCatchAll++;
  else last.endedAfterAnswer++;
}

/** The paths of the sessions started in [from, to), with all their messages as of `now`. */
export function pathTruth(
  p: ProjectData,
  window: { from: number; to: number; now: number; catchAllClass?: string },
): PathTruth {
  const sk = p.skeleton;
  const catchAllClass = window.catchAllClass ?? FALLBACK_CLASS;
  const truth: PathTruth = { paths: [], all: emptyCounts(), byChannel: {} };
  for (let i = 0; i < sk.sessionCount; i++) {
    if (p.withheld.has(i)) continue;
    const start = sk.start.get(i);
    if (start > window.now) break;
    if (start < window.from || start >= window.to) continue;
    const steps = stepsOf(p, i, window.now, catchAllClass);
    const states: string[] = [];
    for (const step of steps) if (states[states.length - 1] !== step.state) states.push(step.state);
    const last = steps[steps.length - 1];
    const path: SessionPath = {
      sessionId: p.sessionId(i),
      channel: p.channelOf(i),
      states,
      ending: last === undefined ? null : last.transfer ? 'agent' : last.catchAll ? 'catch-all' : 'end',
      lastState: last?.state ?? null,
    };
    truth.paths.push(path);
    count(truth.all, steps, path);
    count((truth.byChannel[path.channel] ??= emptyCounts()), steps, path);
  }
  return truth;
}
