// Test helper: the statistics a window should show, computed straight from the emulator's project data
// (skeleton, message facts, statuses, labels, sessionData as of the clock), never from the warehouse or
// its SQL. Local periods use a fixed offset: the tests' zones (UTC, Europe/Moscow) have no DST since 2014.
import type { ProjectData } from '../../../src/emulator/project-data.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** 1970-01-05 was a Monday. */
const MONDAY = 4 * DAY;

export type Unit = 'hour' | 'day' | 'week';

export interface PeriodFigures {
  sessions: number;
  messages: number;
  clients: Set<number>;
  transferred: number;
}

export interface Expected {
  sessions: number;
  nonEmptySessions: number;
  messages: number;
  clients: Set<number>;
  newClients: number;
  transferred: number;
  messageCounts: number[];
  durations: number[];
  byChannel: Map<
    string,
    { sessions: number; nonEmpty: number; messages: number; clients: Set<number>; transferred: number }
  >;
  /** period start (epoch ms) -> figures, all channels; and per channel */
  byPeriod: Map<number, PeriodFigures>;
  byPeriodChannel: Map<string, PeriodFigures>;
  sessionLabels: Map<number, number>;
  sessionLabelsByPeriod: Map<string, number>;
  messageLabels: Map<number, number>;
  messageLabelsByPeriod: Map<string, number>;
  statuses: Map<string, Map<string, number>>;
  channelMessages: Map<string, number>;
  nlp: Map<string, { messages: number; confidenceSum: number }>;
  sessionData: Map<string, number>;
  experiments: Map<string, { sessions: number; messages: number; transferred: number }>;
  firstQuestions: Map<string, number>;
}

/** Start (epoch ms) of the local period holding instant t, in a zone `offset` ms east of UTC. */
export function periodStart(t: number, unit: Unit, offset: number): number {
  const local = t + offset;
  const size = unit === 'hour' ? HOUR : unit === 'day' ? DAY : 7 * DAY;
  const base = unit === 'week' ? MONDAY : 0;
  return Math.floor((local - base) / size) * size + base - offset;
}

export function quantileCont(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function expectedStats(
  p: ProjectData,
  o: { from: number; to: number; now: number; channels?: string[]; unit: Unit; offset: number },
): Expected {
  const sk = p.skeleton;
  const e: Expected = {
    sessions: 0,
    nonEmptySessions: 0,
    messages: 0,
    clients: new Set(),
    newClients: 0,
    transferred: 0,
    messageCounts: [],
    durations: [],
    byChannel: new Map(),
    byPeriod: new Map(),
    byPeriodChannel: new Map(),
    sessionLabels: new Map(),
    sessionLabelsByPeriod: new Map(),
    messageLabels: new Map(),
    messageLabelsByPeriod: new Map(),
    statuses: new Map(),
    channelMessages: new Map(),
    nlp: new Map(),
    sessionData: new Map(),
    experiments: new Map(),
    firstQuestions: new Map(),
  };
  const bump = <K>(map: Map<K, number>, key: K, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
  const period = <K>(map: Map<K, PeriodFigures>, key: K) => {
    let f = map.get(key);
    if (!f) map.set(key, (f = { sessions: 0, messages: 0, clients: new Set(), transferred: 0 }));
    return f;
  };
  const channelRow = (c: string) => {
    let row = e.byChannel.get(c);
    if (!row)
      e.byChannel.set(
        c,
        (row = { sessions: 0, nonEmpty: 0, messages: 0, clients: new Set(), transferred: 0 }),
      );
    return row;
  };
  const newClients = new Set<number>();
  for (let i = 0; i < sk.sessionCount; i++) {
    const start = sk.start.get(i);
    if (start > o.now) break;
    const channel = p.channelOf(i);
    if (o.channels && !o.channels.includes(channel)) continue;
    const visible = sk.visibleMessageCount(i, o.now);
    const transfer = sk.transferAt.get(i);
    const transferred = transfer >= 0 && visible > transfer;
    if (start >= o.from && start < o.to) {
      const client = sk.client.get(i);
      const ps = periodStart(start, o.unit, o.offset);
      e.sessions++;
      if (visible > 0) e.nonEmptySessions++;
      e.clients.add(client);
      if (sk.start.get(sk.clientCreator.get(client)) >= o.from) newClients.add(client);
      if (transferred) e.transferred++;
      e.messageCounts.push(visible);
      e.durations.push(visible > 0 ? sk.messageTime(i, visible - 1) - start : 0);
      const row = channelRow(channel);
      row.sessions++;
      if (visible > 0) row.nonEmpty++;
      row.clients.add(client);
      if (transferred) row.transferred++;
      for (const f of [period(e.byPeriod, ps), period(e.byPeriodChannel, `${ps}|${channel}`)]) {
        f.sessions++;
        f.clients.add(client);
        if (transferred) f.transferred++;
      }
      for (const id of p.sessionLabelIds(i, o.now)) {
        bump(e.sessionLabels, id);
        bump(e.sessionLabelsByPeriod, `${ps}|${id}`);
      }
      for (const [key, value] of Object.entries(p.sessionData(i))) bump(e.sessionData, `${key}=${value}`);
      for (const experiment of p.state.experiments.values()) {
        const branch = p.experimentBranch(experiment, i);
        if (branch === undefined) continue;
        const key = `${experiment.key}/${branch}`;
        const x = e.experiments.get(key) ?? { sessions: 0, messages: 0, transferred: 0 };
        x.sessions++;
        x.messages += visible;
        if (transferred) x.transferred++;
        e.experiments.set(key, x);
      }
      const first = p.sessionRecord(i, o.now)['firstQuestion'];
      if (typeof first === 'string') bump(e.firstQuestions, first);
    }
    for (let k = 0; k < visible; k++) {
      const t = sk.messageTime(i, k);
      if (t < o.from || t >= o.to) continue;
      const ps = periodStart(t, o.unit, o.offset);
      e.messages++;
      channelRow(channel).messages++;
      period(e.byPeriod, ps).messages++;
      period(e.byPeriodChannel, `${ps}|${channel}`).messages++;
      bump(e.channelMessages, channel);
      for (const id of p.messageLabelIds(i, k, o.now)) {
        bump(e.messageLabels, id);
        bump(e.messageLabelsByPeriod, `${ps}|${id}`);
      }
      const status = p.statusAt(i, k, o.now);
      if (status !== undefined) {
        const perChannel = e.statuses.get(channel) ?? new Map<string, number>();
        bump(perChannel, status);
        e.statuses.set(channel, perChannel);
      }
      const facts = p.messageFacts(i, k);
      if (facts.nlpClass !== undefined) {
        const n = e.nlp.get(facts.nlpClass) ?? { messages: 0, confidenceSum: 0 };
        n.messages++;
        n.confidenceSum += facts.confidence ?? 0;
        e.nlp.set(facts.nlpClass, n);
      }
    }
  }
  e.newClients = newClients.size;
  return e;
}
