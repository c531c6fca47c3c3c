// The dialog paths of a period: what `paths` computes, `paths --json` prints and the `paths` report shows
// (documented field by field in docs/paths.md; fields are only ever added). Counts are numbers, times ISO-8601
// UTC strings; shares are fractions in [0, 1], null where their denominator is 0.

export const PATHS_SCHEMA_VERSION = 1;

/** Positions of the paths the flow chart unrolls (the platform's routes keep five states too). */
export const FLOW_STEPS = 5;

/** What to compute: the period, the selection and how long the top lists are. */
export interface PathsQuery {
  /** projectShortNames; undefined: every project in the warehouse. */
  projects?: readonly string[] | undefined;
  /** Channel types (as stored: lower case); undefined: every channel. */
  channels?: readonly string[] | undefined;
  /** Epoch ms: sessions that started in [from, to), with all their messages. */
  from: number;
  to: number;
  /** IANA zone of the period as people read it (the text and the report). */
  timeZone: string;
  /** Length of the top lists (transitions, routes, states of a channel). */
  top: number;
  /** The NLP class of the catch-all (unrecognised) answers. */
  catchAllClass: string;
}

/** How a session's path ended: its last step was a regular answer, a catch-all answer, or a transfer. */
export type Ending = 'end' | 'catch-all' | 'agent';

export interface PathTotals {
  /** Sessions that started in the period. */
  sessions: number;
  /** Of them, with at least one step (a message the bot answered). */
  withPath: number;
  /** Without one: no message, or only the agent's. */
  withoutPath: number;
  /** By how the path ended (their sum is withPath). */
  endedAfterAnswer: number;
  endedAfterCatchAll: number;
  endedWithAgent: number;
  /** Distinct paths. */
  routes: number;
}

export interface NextState {
  state: string;
  /** Sessions that went from the state straight to this one (at least once). */
  sessions: number;
  /** How often, counting every time. */
  times: number;
  /** sessions ÷ the state's reached. */
  share: number | null;
}

/** The catch-all questions right after a state in one cluster of the stored unhandled run (id null: in none). */
export interface ClusterCount {
  id: string | null;
  rank: number | null;
  label: string | null;
  questions: number;
  sessions: number;
}

export interface StateFigures {
  state: string;
  /** Sessions with a step in the state. */
  reached: number;
  /** Steps in the state (messages answered from it). */
  steps: number;
  /** Sessions whose path ended at the state other than with an agent: after a regular or a catch-all answer. */
  droppedOff: number;
  /** droppedOff ÷ reached. */
  dropOffShare: number | null;
  endedAfterAnswer: number;
  endedAfterCatchAll: number;
  endedWithAgent: number;
  /** Sessions in which a step in the state was followed by a transfer to an agent. */
  agentAfter: number;
  agentAfterShare: number | null;
  /** Sessions in which a step in the state was followed by a catch-all answer. */
  catchAllAfter: number;
  catchAllAfterShare: number | null;
  /** Every state taken straight after it, most sessions first. */
  next: NextState[];
  /** Where the catch-all questions after it fall in the stored unhandled run; null without a run. */
  clusters: ClusterCount[] | null;
}

export interface TransitionRow {
  from: string;
  to: string;
  sessions: number;
  times: number;
  /** sessions ÷ the sessions that reached `from`. */
  share: number | null;
}

/** A route's figures in the previous period: null where that period is not covered by synced data. */
export interface PreviousRoute {
  sessions: number | null;
  share: number | null;
  /** sessions ÷ previous sessions − 1; null when not covered or the previous period had none. */
  change: number | null;
}

export interface RouteRow {
  /** The path's states joined with ' > '. */
  route: string;
  states: number;
  sessions: number;
  /** sessions ÷ the sessions with a path. */
  share: number | null;
  previous: PreviousRoute;
}

export interface ChannelPaths {
  channel: string;
  totals: PathTotals;
  states: StateFigures[];
  transitions: TransitionRow[];
  routes: RouteRow[];
}

export interface FlowNode {
  /** Position in the path, from 1. */
  step: number;
  state: string;
  sessions: number;
  /** Of them, sessions whose path ends there. */
  ended: number;
}

export interface FlowLink {
  /** The position the move starts from. */
  step: number;
  from: string;
  to: string;
  sessions: number;
}

export interface PathsFlow {
  steps: number;
  /** Sessions at each position, every state (not only the nodes drawn). */
  stepSessions: number[];
  nodes: FlowNode[];
  links: FlowLink[];
}

export interface PreviousPeriod {
  from: string;
  to: string;
  /** The share of the previous period the synced data covers, every selected project (the least of them). */
  coverage: number;
  covered: boolean;
  /** Why there is no change: "n/a: the previous period is N % covered"; null when covered. */
  note: string | null;
  /** Sessions with a path in the previous period; null when not covered. */
  withPath: number | null;
}

export interface PlatformRouteRow {
  channel: string;
  /** The platform's route: at most five states joined with ' > ' ('' for none). */
  route: string;
  result: string;
  platform: number;
  /** The warehouse's sessions on the route by the platform's rule. */
  ours: number;
  /** Σ |platform − ours| over the days compared. */
  differing: number;
  /** Of ours: sessions with more than five states (the route is their first five). */
  cut: number;
  /** Of ours: sessions with the agent's messages (their state '/' in the route). */
  agent: number;
  /** Of ours: sessions whose path is the route itself. */
  same: number;
}

export interface PlatformRoutes {
  /** The whole UTC days compared: [dayFrom, dayTo); null when the period holds none. */
  dayFrom: string | null;
  dayTo: string | null;
  /** Days (per project) the state-routes source stored, compared. */
  daysCompared: number;
  /** Days (per project) with sessions of ours but no route of the platform: not read by the state-routes source. */
  daysNotSynced: number;
  sessionsNotSynced: number;
  routes: number;
  routesDiffering: number;
  platformSessions: number;
  ourSessions: number;
  /** Of ours: sessions whose path is the platform's route (the definitions agree on them). */
  sameSessions: number;
  /** Of ours: sessions with more than five states, and with the agent's messages (a session may be both). */
  cutSessions: number;
  agentSessions: number;
  /** The top routes by the platform's sessions, those that differ first. */
  rows: PlatformRouteRow[];
}

export interface PathsReport {
  schemaVersion: number;
  generatedAt: string;
  window: { from: string; to: string };
  timeZone: string;
  filters: { projects: string[]; channels: string[] | null };
  catchAllClass: string;
  totals: PathTotals;
  /** Every state, ranked by drop-off (then by name). */
  states: StateFigures[];
  /** The top transitions by sessions. */
  transitions: TransitionRow[];
  /** The top paths by sessions, with the previous period's. */
  routes: RouteRow[];
  previous: PreviousPeriod;
  /** The stored unhandled run of exactly this period and selection, when there is one. */
  unhandledRun: { runId: string; catchAllQuestions: number; inClusters: number } | null;
  flow: PathsFlow;
  byChannel: ChannelPaths[];
  platform: PlatformRoutes;
}
