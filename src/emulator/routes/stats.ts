// Statistics operations, computed from the very selections that sessions/filter and messages/filter page
// through, so a complete sync reconciles with them exactly: advanced stats (sessions, messages, session
// labels, log labels) and simple stats (switched sessions, telephony, unique clients).
// Days of the simple stats are local days of the Timezone header; dateTo is inclusive.
import { badParameter } from '../api-error.js';
import { Buckets, INTERVAL_TYPES, type IntervalType } from '../buckets.js';
import { type CompiledFilters, compileFilters, type Range } from '../filters.js';
import { queryDate, queryEnum, queryInt, queryList, queryString, timezoneOffset } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { selectMessages, selectSessions } from '../query.js';
import { type Route, type RouteContext, readRoute } from '../route.js';

const DAY = 86_400_000;

function bucketsFor(ctx: RouteContext): () => Buckets {
  const type = queryEnum(ctx.query, 'intervalType', INTERVAL_TYPES, 'DAY') as IntervalType;
  const step = queryInt(ctx.query, 'step', { default: 1, min: 1, max: 1000 })!;
  const offset = timezoneOffset(ctx.headers['timezone']);
  return () => new Buckets(type, step, offset);
}

/** The window the filters state, to list empty buckets inside it. */
function windowOf(
  f: { sessionStart?: Range; messageTime?: Range },
  kind: 'session' | 'message',
  now: number,
): [number, number] | undefined {
  const range = kind === 'session' ? (f.sessionStart ?? f.messageTime) : (f.messageTime ?? f.sessionStart);
  return range ? [range[0], Math.min(range[1], now)] : undefined;
}

/** Local days [dateFrom, dateTo] of the simple stats as an epoch range [from, to). */
function dayRange(ctx: RouteContext): { from: number; to: number; offset: number } {
  const offset = timezoneOffset(ctx.headers['timezone']);
  const from = queryDate(ctx.query, 'dateFrom', true)! - offset * 60_000;
  const to = queryDate(ctx.query, 'dateTo', true)! + DAY - offset * 60_000;
  if (to <= from) throw badParameter('dateTo', 'is before dateFrom');
  return { from, to, offset };
}

function sessionsStartedIn(
  p: ProjectData,
  from: number,
  to: number,
  now: number,
  botIds: string[],
): number[] {
  const [lo, hi] = p.skeleton.sessionsStartingIn(from, Math.min(to - 1, now));
  const out: number[] = [];
  for (let i = lo; i < hi; i++) {
    if (p.withheld.has(i)) continue;
    if (botIds.length > 0 && !botIds.includes(p.botIdOf(i))) continue;
    out.push(i);
  }
  return out;
}

type Kind = 'session' | 'message';

/** Each session (or message) that matches `filters`, in the API's order: its time and its label ids. */
function eachMatch(
  ctx: RouteContext,
  filters: CompiledFilters,
  kind: Kind,
  visit: (time: number, labelIds: () => Iterable<number>) => void,
): void {
  const p = ctx.project;
  if (kind === 'session') {
    for (const i of selectSessions(p, filters, ctx.now))
      visit(p.skeleton.start.get(i), () => p.sessionLabelIds(i, ctx.now));
  } else {
    for (const r of selectMessages(p, filters, ctx.now))
      visit(p.skeleton.messageTime(r.i, r.k), () => p.messageLabelIds(r.i, r.k, ctx.now));
  }
}

/** Advanced stats of the matching sessions (or messages): `{stats: buckets, totalCount}`. */
function countStats(path: string, op: string, kind: Kind): Route {
  return readRoute('POST', path, op, (ctx) => {
    const make = bucketsFor(ctx);
    const filters = compileFilters(ctx.body);
    const buckets = make();
    eachMatch(ctx, filters, kind, (time) => buckets.add(time));
    return { stats: buckets.list(windowOf(filters, kind, ctx.now)), totalCount: buckets.total };
  });
}

/** Advanced stats per label of the catalogue (zeros included) over the matching sessions (or messages). */
function labelStats(path: string, op: string, kind: Kind): Route {
  return readRoute('POST', path, op, (ctx) => {
    const make = bucketsFor(ctx);
    const filters = compileFilters(ctx.body);
    const p = ctx.project;
    const catalogue = kind === 'session' ? p.state.sessionLabels : p.state.messageLabels;
    const perLabel = new Map<number, Buckets>();
    for (const label of catalogue.values()) perLabel.set(label.id, make());
    eachMatch(ctx, filters, kind, (time, labelIds) => {
      for (const id of labelIds()) perLabel.get(id)?.add(time);
    });
    const window = windowOf(filters, kind, ctx.now);
    const stats = [...perLabel.entries()].map(([id, b]) => ({
      label: kind === 'session' ? p.sessionLabelDtos([id])[0] : p.messageLabelDtos([id])[0],
      tsToValues: b.list(window),
      totalCount: b.total,
    }));
    return { stats };
  });
}

export function statsRoutes(): Route[] {
  return [
    countStats('stats/sessions/with-advanced-filters', 'getSessionStats', 'session'),
    countStats('stats/messages/with-advanced-filters', 'getMessageStats', 'message'),
    labelStats('stats/session-labels', 'getSessionLabelStats', 'session'),
    labelStats('stats/log-labels', 'getLogLabelStats', 'message'),
    readRoute('GET', 'stats/switched-sessions', 'getSwitchedSessionCountByDay', (ctx) => {
      const { from, to, offset } = dayRange(ctx);
      const method = queryEnum(ctx.query, 'transferToOperatorMethod', ['SWITCH', 'TEXT'] as const);
      if (method === undefined)
        throw badParameter('transferToOperatorMethod', 'required parameter is missing (SWITCH or TEXT)');
      const text = queryString(ctx.query, 'textForTransfer');
      if (method === 'TEXT' && text === undefined)
        throw badParameter('textForTransfer', 'required when transferToOperatorMethod=TEXT');
      const p = ctx.project;
      const buckets = new Buckets('DAY', 1, offset);
      for (const i of sessionsStartedIn(p, from, to, ctx.now, queryList(ctx.query, 'botIds'))) {
        const visible = p.skeleton.visibleMessageCount(i, ctx.now);
        let switched = false;
        for (let k = 0; k < visible && !switched; k++) {
          const facts = p.messageFacts(i, k);
          switched = method === 'SWITCH' ? facts.isSwitch : facts.answer === text;
        }
        if (switched) buckets.add(p.skeleton.start.get(i));
      }
      return { stats: buckets.list([from, to - 1]), totalCount: buckets.total };
    }),
    readRoute('GET', 'stats/telephony', 'getTelephonyStats', (ctx) => {
      const { from, to, offset } = dayRange(ctx);
      const p = ctx.project;
      const incoming = new Buckets('DAY', 1, offset);
      const outgoing = new Buckets('DAY', 1, offset);
      const billing = new Buckets('DAY', 1, offset);
      let durationMs = 0;
      let calls = 0;
      for (const i of sessionsStartedIn(p, from, to, ctx.now, queryList(ctx.query, 'botIds'))) {
        if (p.channelOf(i) !== 'resterisk') continue;
        const record = p.sessionRecord(i, ctx.now);
        const start = p.skeleton.start.get(i);
        (record['isCallIncoming'] ? incoming : outgoing).add(start);
        if ((record['questionCount'] as number) > 0) billing.add(start);
        durationMs += record['duration'] as number;
        calls++;
      }
      const range: [number, number] = [from, to - 1];
      return {
        averageCallDurationInSeconds: calls === 0 ? 0 : Math.round(durationMs / calls / 10) / 100,
        billingCount: billing.list(range),
        incomingCount: incoming.list(range),
        outgoingCount: outgoing.list(range),
      };
    }),
    readRoute('GET', 'stats/unique-clients', 'getAllProjectsUniqueClients', (ctx) => {
      return ctx.tokenProjects.map((name) => {
        const p = ctx.emulator.project(name);
        const sk = p.skeleton;
        let totalCount = 0;
        for (let c = 0; c < sk.clientCreator.length; c++)
          if (sk.start.get(sk.clientCreator.get(c)) <= ctx.now) totalCount++;
        return { projectShortName: name, totalCount };
      });
    }),
  ];
}
