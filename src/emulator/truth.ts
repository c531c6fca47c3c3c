// Ground truth: what a complete sync of a time window [from, to) must contain, computed straight from the
// emulator's data as of the clock, without the HTTP layer, the filters or any client code.
import type { ProjectData } from './project-data.js';
import { stateRoute } from './state-route.js';

export interface GroundTruth {
  project: string;
  from: string | null;
  to: string | null;
  asOf: string;
  sessions: number;
  nonEmptySessions: number;
  messages: number;
  uniqueClients: number;
  transferredSessions: number;
  sessionIds: string[];
  messageIds: string[];
  byChannel: Record<string, { sessions: number; messages: number }>;
  /** Sessions (started in the window) per session label name. */
  sessionLabels: Record<string, number>;
  /** Messages (in the window) per message label name. */
  messageLabels: Record<string, number>;
  /** Messages (in the window) per latest delivery status, per channel. */
  statuses: Record<string, Record<string, number>>;
  /** UTF-8 bytes of the questions and answers of the messages (in the window). */
  textBytes: number;
  /** Messages per NLP class. */
  nlpClasses: Record<string, number>;
  /** Sessions per `key=value` of sessionData. */
  sessionData: Record<string, number>;
  /** Joined sessions (started in the window) per experiment and branch. */
  experiments: Record<string, Record<string, number>>;
  /** Sessions (started in the window) per `channel|state > state|result` of their route through the states. */
  stateRoutes: Record<string, number>;
  /** Calls: telephony (resterisk) sessions started in the window; billed = with at least one message. */
  calls: { incoming: number; outgoing: number; billed: number; durationMs: number };
}

function bump(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}

/** Adds session `i` to the truth's state routes and, for a call, to its calls. */
function countRouteAndCall(truth: GroundTruth, p: ProjectData, i: number, now: number): void {
  const channel = p.channelOf(i);
  bump(truth.stateRoutes, `${channel}|${stateRoute(p, i, now).join(' > ')}|${p.sessionResult(i)}`);
  if (channel !== 'resterisk') return;
  const record = p.sessionRecord(i, now);
  if (record['isCallIncoming']) truth.calls.incoming++;
  else truth.calls.outgoing++;
  if ((record['questionCount'] as number) > 0) truth.calls.billed++;
  truth.calls.durationMs += record['duration'] as number;
}

/** The truth of [from, to): sessions by start time, messages by timestamp, each as of `now`. */
export function groundTruth(
  p: ProjectData,
  window: { from?: number; to?: number; now: number; ids?: boolean },
): GroundTruth {
  const sk = p.skeleton;
  const from = window.from ?? Number.NEGATIVE_INFINITY;
  const to = Math.min(window.to ?? Number.POSITIVE_INFINITY, window.now + 1);
  const truth: GroundTruth = {
    project: p.name,
    from: Number.isFinite(from) ? new Date(from).toISOString() : null,
    to: window.to !== undefined ? new Date(window.to).toISOString() : null,
    asOf: new Date(window.now).toISOString(),
    sessions: 0,
    nonEmptySessions: 0,
    messages: 0,
    uniqueClients: 0,
    transferredSessions: 0,
    sessionIds: [],
    messageIds: [],
    byChannel: {},
    sessionLabels: {},
    messageLabels: {},
    statuses: {},
    textBytes: 0,
    nlpClasses: {},
    sessionData: {},
    experiments: {},
    stateRoutes: {},
    calls: { incoming: 0, outgoing: 0, billed: 0, durationMs: 0 },
  };
  const clients = new Set<number>();
  const withIds = window.ids !== false;
  for (let i = 0; i < sk.sessionCount; i++) {
    if (p.withheld.has(i)) continue;
    const start = sk.start.get(i);
    if (start > window.now) break;
    const channel = p.channelOf(i);
    const visible = sk.visibleMessageCount(i, window.now);
    const channelRow = (truth.byChannel[channel] ??= { sessions: 0, messages: 0 });
    if (start >= from && start < to) {
      truth.sessions++;
      channelRow.sessions++;
      if (withIds) truth.sessionIds.push(p.sessionId(i));
      if (visible > 0) truth.nonEmptySessions++;
      clients.add(sk.client.get(i));
      const transfer = sk.transferAt.get(i);
      if (transfer >= 0 && visible > transfer) truth.transferredSessions++;
      for (const id of p.sessionLabelIds(i, window.now))
        bump(truth.sessionLabels, p.state.sessionLabels.get(id)!.name);
      for (const [key, value] of Object.entries(p.sessionData(i))) bump(truth.sessionData, `${key}=${value}`);
      countRouteAndCall(truth, p, i, window.now);
      for (const experiment of p.state.experiments.values()) {
        const branch = p.experimentBranch(experiment, i);
        if (branch !== undefined) bump((truth.experiments[experiment.key] ??= {}), branch);
      }
    }
    for (let k = 0; k < visible; k++) {
      const t = sk.messageTime(i, k);
      if (t < from || t >= to) continue;
      truth.messages++;
      channelRow.messages++;
      if (withIds) truth.messageIds.push(p.questionId(i, k));
      for (const id of p.messageLabelIds(i, k, window.now))
        bump(truth.messageLabels, p.state.messageLabels.get(id)!.name);
      const status = p.statusAt(i, k, window.now);
      if (status !== undefined) bump((truth.statuses[channel] ??= {}), status);
      const facts = p.messageFacts(i, k);
      truth.textBytes += Buffer.byteLength(facts.question ?? '') + Buffer.byteLength(facts.answer);
      if (facts.nlpClass !== undefined) bump(truth.nlpClasses, facts.nlpClass);
    }
  }
  for (const [channel, row] of Object.entries(truth.byChannel)) {
    if (row.sessions === 0 && row.messages === 0) delete truth.byChannel[channel];
  }
  truth.uniqueClients = clients.size;
  truth.sessionIds.sort();
  truth.messageIds.sort();
  return truth;
}
