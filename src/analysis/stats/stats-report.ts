// The statistics report: what `stats` computes and `stats --json` prints (documented field by field in
// docs/statistics.md; scripts and the report builder read it, so fields are only ever added). Counts are numbers, times
// ISO-8601 UTC strings; shares and rates are fractions in [0, 1], null where their denominator is 0.

export const STATS_SCHEMA_VERSION = 1;

export const PERIOD_UNITS = ['hour', 'day', 'week', 'month'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/** What to compute: the window, the selection and how to bucket and cut the lists. */
export interface StatsQuery {
  /** projectShortNames; undefined: every project in the warehouse. */
  projects?: readonly string[] | undefined;
  /** Channel types (normalised lower case); undefined: every channel. */
  channels?: readonly string[] | undefined;
  /** Epoch ms, inclusive; undefined: the first session or message of the selection. */
  from?: number | undefined;
  /** Epoch ms, exclusive; undefined: just after the last session or message of the selection. */
  to?: number | undefined;
  /** IANA time zone of the periods. */
  timeZone: string;
  period: PeriodUnit;
  /** Length of the top lists (intents, first questions, values per sessionData key). */
  top: number;
  /** The NLP class of unrecognised requests. */
  catchAllClass: string;
}

export interface Distribution {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
}

export interface StatsTotals {
  sessions: number;
  nonEmptySessions: number;
  messages: number;
  uniqueClients: number;
  newClients: number;
  returningClients: number;
  transferredSessions: number;
  transferShare: number | null;
  messagesPerSession: Distribution | null;
  sessionDurationMs: Distribution | null;
}

export interface ChannelRow {
  channel: string | null;
  sessions: number;
  nonEmptySessions: number;
  messages: number;
  uniqueClients: number;
  transferredSessions: number;
  transferShare: number | null;
}

export interface PeriodRow {
  period: string;
  start: string;
  sessions: number;
  messages: number;
  uniqueClients: number;
  transferredSessions: number;
}

export interface PeriodChannelRow extends PeriodRow {
  channel: string | null;
}

export interface SessionLabelRow {
  project: string;
  labelId: number;
  label: string | null;
  count: number;
  share: number | null;
}

export interface MessageLabelRow extends SessionLabelRow {
  group: string | null;
}

export interface SessionLabelPeriodRow {
  period: string;
  start: string;
  project: string;
  labelId: number;
  label: string | null;
  count: number;
}

export interface MessageLabelPeriodRow extends SessionLabelPeriodRow {
  group: string | null;
}

export interface FunnelRow {
  channel: string;
  messages: number;
  withStatus: number;
  noStatus: number;
  sent: number | null;
  delivered: number;
  read: number | null;
  notSent: number;
  notDelivered: number;
  /** Messages whose latest status is none of the documented five (a status added later, kept as given). */
  other: number;
  unexpected: number;
  deliveredRate: number | null;
  readRate: number | null;
  notSentRate: number | null;
  notDeliveredRate: number | null;
  /** Always null: not measured, no API gives the time of a status change (docs/statistics.md). */
  medianMsToRead: null;
  /** Always null, kept as fields are never removed: the messages a median to READ would be over. */
  readTimed: null;
}

export interface IntentRow {
  nlpClass: string;
  messages: number;
  share: number | null;
  meanConfidence: number | null;
}

export interface IntentStats {
  catchAllClass: string;
  classified: number;
  unrecognised: number;
  unrecognisedShare: number | null;
  top: IntentRow[];
}

export interface SessionDataKeyRow {
  key: string;
  sessions: number;
  share: number | null;
  distinctValues: number;
  values: { value: string | null; sessions: number; share: number | null }[];
}

export interface ExperimentRow {
  project: string;
  experiment: string;
  status: string | null;
  branch: string;
  sessions: number;
  messagesPerSession: number | null;
  transferredSessions: number;
  transferRate: number | null;
}

export interface FirstQuestionRow {
  question: string;
  sessions: number;
  share: number | null;
}

/** The Prompter's suggestions for the questions `prompter ask` sent (docs/prompter.md, docs/statistics.md). */
export interface PrompterStats {
  /** Questions recorded in prompter_requests with sent_at in the window (--from/--to; all time without). */
  questions: number;
  /** Of them, accepted by the Prompter (a questionId). */
  sent: number;
  failed: number;
  /** With an answer stored (whenever it arrived). */
  answered: number;
  answeredRate: number | null;
  /** Answered with at least one option. */
  withOptions: number;
  withOptionsRate: number | null;
  /** Options per answered question. */
  meanOptions: number | null;
  /** The best option's confidence, over the answers with an option; buckets of tenths [0, 0.1) .. [0.9, 1]. */
  top1Confidence: {
    mean: number;
    p50: number;
    p90: number;
    buckets: { from: number; to: number; questions: number }[];
  } | null;
  /** The intents suggested first, most often first (top --top). */
  topIntents: {
    intentPath: string | null;
    intentName: string | null;
    questions: number;
    share: number | null;
    meanConfidence: number | null;
  }[];
  /** Over the answered questions with an expected intent (no option counts as a miss). */
  accuracy: {
    questions: number;
    top1: number;
    top3: number;
    top1Rate: number | null;
    top3Rate: number | null;
  };
  /** From sending the question to the answer reaching the receiver (ms), over the answered ones. */
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number } | null;
}

export interface StatsReport {
  schemaVersion: number;
  generatedAt: string;
  /** [from, to): null when the selection holds no data and no bound was given. */
  window: {
    from: string | null;
    to: string | null;
    requestedFrom: string | null;
    requestedTo: string | null;
  };
  timeZone: string;
  period: PeriodUnit;
  filters: { projects: string[]; channels: string[] | null };
  /** True when the window holds no session and no message. */
  empty: boolean;
  totals: StatsTotals;
  byChannel: ChannelRow[];
  byPeriod: PeriodRow[];
  byPeriodChannel: PeriodChannelRow[];
  sessionLabels: SessionLabelRow[];
  sessionLabelsByPeriod: SessionLabelPeriodRow[];
  messageLabels: MessageLabelRow[];
  messageLabelsByPeriod: MessageLabelPeriodRow[];
  deliveryFunnel: FunnelRow[];
  intents: IntentStats;
  sessionData: SessionDataKeyRow[];
  experiments: ExperimentRow[];
  firstQuestions: FirstQuestionRow[];
  prompter: PrompterStats;
}
