// One emulated project: its skeleton (what happened), its state (what people changed since) and the
// functions that turn both into wire records as of a given clock time. Every record field is derived
// here, so the HTTP answers, the statistics, the report files and the ground truth agree by construction.
import { clientIdOf, parseQuestionId, parseSessionId, questionIdOf, sessionIdOf } from './ids.js';
import { LiveSessions } from './live-sessions.js';
import { hashString, hex, pick, pickIndex, pickWeighted, unit } from './prng.js';
import { Skeleton, type SkeletonOptions } from './skeleton.js';
import {
  type Block,
  type Experiment,
  ProjectState,
  SEEDED_MESSAGE_LABEL_IDS,
  SEEDED_SESSION_LABEL_IDS,
} from './state.js';
import { type CatchAllOptions, corpusQuestion } from './unhandled-corpus.js';
import { type UnhandledQuestion, unhandledQuestion } from './unhandled-topics.js';
import {
  AGENT_ANSWERS,
  AGENTS,
  CHANNELS,
  CITIES,
  EVENTS,
  FALLBACK_ANSWER,
  FALLBACK_CLASS,
  FIRST_NAMES,
  INTENTS,
  LAST_NAMES,
  PLANS,
  SESSION_LABELS,
  SESSION_RESULTS,
  SOURCES,
  STATUS_CHANNELS,
  UNRECOGNISED_QUESTIONS,
} from './vocabulary.js';

export const iso = (t: number): string => new Date(t).toISOString();

export interface ProjectOptions extends SkeletonOptions {
  name: string;
  accountId: number;
  /** Lengthened question and answer texts (none by default). */
  texts?: TextLengths;
  /** Share of sessions (with messages) whose bot stored a Pushgate pushback id in sessionData (`pushbackId`). */
  pushbackShare?: number;
  /** A delivery status the platform added later (none by default): see EmulatorOptions.newStatus. */
  newStatus?: NewStatus;
  /** Where the catch-all questions come from and how many there are (the hidden topics, 12 % by default). */
  catchAll?: CatchAllOptions;
}

/** A delivery status beyond the documented five, and the share of status-channel answers that end in it. */
export interface NewStatus {
  status: string;
  share: number;
}

/**
 * Long texts, for the sync's memory bounds: every message's question and answer `length` characters (code
 * points) long, and 1 in `longEvery` messages (picked by hash) `longLength` characters long; 0 leaves a
 * text as the vocabulary has it. A long text is `#i.k ` and the vocabulary's text repeated, then cut.
 */
export interface TextLengths {
  length: number;
  longEvery: number;
  longLength: number;
}

/** What a message is, independent of the clock and of people's changes. */
export interface MessageFacts {
  i: number;
  k: number;
  time: number;
  question?: string;
  event?: string;
  nlpClass?: string;
  nlpState?: string;
  confidence?: number;
  answer: string;
  isLivechat: boolean;
  operator?: (typeof AGENTS)[number];
  /** The bot's answer hands the dialog to an agent (`switch` reply). */
  isSwitch: boolean;
  processingTime: number;
  exception?: string;
  /** When the answer reached the client, if not `time + processingTime` (an agent's later reply). */
  answerAt?: number;
}

/** The documented five, or a status the platform added later (EmulatorOptions.newStatus). */
export type DeliveryStatus = 'SENT' | 'DELIVERED' | 'READ' | 'NOT_SENT' | 'NOT_DELIVERED' | (string & {});
export interface StatusStep {
  status: DeliveryStatus;
  at: number;
}

const INTENT_WEIGHTS = INTENTS.map((intent) => intent.weight);
const SESSION_LABEL_WEIGHTS = SESSION_LABELS.map((label) => label.weight);
const OPERATOR_INTENT = INTENTS.find((intent) => intent.nlpClass === '/Operator')!;
/** The share of the bot's answered messages that are catch-all, unless `catchAll.share` says otherwise. */
const UNRECOGNISED_SHARE = 0.12;
/**
 * People label and comment within 36 hours of a message (or of a session's end), and a message is read
 * within a day of delivery: every change lands inside the default 48-hour look-back of an incremental sync
 * (sessions last at most 6 hours).
 */
export const LABEL_DELAY_MS = 36 * 3_600_000;
export const READ_DELAY_MS = 24 * 3_600_000;

/** `text` repeated and cut to exactly `n` code points (never half a surrogate pair). */
export function lengthenText(text: string, n: number): string {
  const points = Array.from(text);
  // the whole text as many times as it fits, then its first code points: one string built by repeat, not n
  // one-character strings joined (the long-text emulators build thousands of these per request)
  const rest = n % points.length;
  return text.repeat((n - rest) / points.length) + points.slice(0, rest).join('');
}

export class ProjectData {
  readonly name: string;
  readonly accountId: number;
  readonly seed: number;
  readonly skeleton: Skeleton;
  readonly state: ProjectState;
  readonly botIds: readonly [string, string];
  /** Sessions held back from every answer for a while (scripted page drift). */
  readonly withheld = new Set<number>();
  readonly texts: TextLengths;
  readonly pushbackShare: number;
  readonly newStatus: NewStatus | undefined;
  readonly catchAll: CatchAllOptions;
  /** Sessions that came from outside (Chat API dialogues), with their messages as they were said. */
  readonly live = new LiveSessions();
  private clientIndexById = new Map<string, number>();
  private clientsIndexed = 0;

  constructor(options: ProjectOptions) {
    this.name = options.name;
    this.texts = options.texts ?? { length: 0, longEvery: 0, longLength: 0 };
    this.pushbackShare = options.pushbackShare ?? 0;
    this.newStatus = options.newStatus;
    this.catchAll = options.catchAll ?? {};
    this.accountId = options.accountId;
    this.seed = options.seed;
    this.skeleton = new Skeleton(options);
    this.state = new ProjectState({ t0: this.skeleton.t0, now: options.now });
    this.botIds = [
      `${options.accountId}-${options.name}-${options.accountId}-chat`,
      `${options.accountId}-${options.name}-${options.accountId}-voice`,
    ];
  }

  /** The catch-all question of message (i, k) and where it came from (a topic, a corpus intent, or noise). */
  catchAllQuestion(i: number, k: number): UnhandledQuestion {
    const corpus = this.catchAll.corpus;
    return corpus ? corpusQuestion(corpus, this.seed, i, k) : unhandledQuestion(this.seed, i, k);
  }

  // ----- identity ---------------------------------------------------------------------------------

  sessionId(i: number): string {
    return sessionIdOf(this.seed, i);
  }
  /** The Pushgate pushback of session i's dialog (the bot stores it in sessionData when pushbackShare says so). */
  pushbackId(i: number): string {
    return `pb-${this.sessionId(i)}-${hex(8, this.seed, i, 4242)}`;
  }
  /** The session of a pushback id of this project (pushbackId's inverse), if it is one. */
  pushbackSession(id: string): number | undefined {
    const m = /^pb-(.+)-([0-9a-f]{8})$/.exec(id);
    if (!m) return undefined;
    const i = this.sessionIndex(m[1]!);
    return i !== undefined && this.pushbackId(i) === id ? i : undefined;
  }
  /** The session index of an id, if the id is one of this project's sessions. */
  sessionIndex(id: string): number | undefined {
    const i = parseSessionId(this.seed, id);
    return i !== undefined && i < this.skeleton.sessionCount ? i : undefined;
  }
  questionId(i: number, k: number): string {
    return questionIdOf(this.seed, i, k);
  }
  messageIndex(id: string): { i: number; k: number } | undefined {
    const at = parseQuestionId(this.seed, id);
    if (!at || at.i >= this.skeleton.sessionCount || at.k >= this.skeleton.msgCount.get(at.i))
      return undefined;
    return at;
  }
  channelOf(i: number): string {
    return CHANNELS[this.skeleton.channel.get(i)]!;
  }
  botIdOf(i: number): string {
    return this.channelOf(i) === 'resterisk' ? this.botIds[1] : this.botIds[0];
  }
  clientId(clientIndex: number): string {
    const live = this.live.clientIds.get(clientIndex);
    if (live !== undefined) return live;
    return clientIdOf(this.seed, CHANNELS[this.skeleton.clientChannel.get(clientIndex)]!, clientIndex);
  }
  clientIndex(id: string): number | undefined {
    const total = this.skeleton.clientCreator.length;
    for (; this.clientsIndexed < total; this.clientsIndexed++) {
      this.clientIndexById.set(this.clientId(this.clientsIndexed), this.clientsIndexed);
    }
    return this.clientIndexById.get(id);
  }
  clientInfo(clientIndex: number): { id: string; firstName?: string; lastName?: string; username?: string } {
    const s = this.seed;
    const channel = CHANNELS[this.skeleton.clientChannel.get(clientIndex)]!;
    const info: { id: string; firstName?: string; lastName?: string; username?: string } = {
      id: this.clientId(clientIndex),
    };
    if (channel !== 'chatapi' && channel !== 'resterisk') {
      info.firstName = pick(FIRST_NAMES, s, clientIndex, 310);
      if (unit(s, clientIndex, 311) < 0.7) info.lastName = pick(LAST_NAMES, s, clientIndex, 312);
    }
    if (channel === 'telegram' && unit(s, clientIndex, 313) < 0.6) {
      info.username = `user_${clientIndex.toString(36)}`;
    }
    return info;
  }

  // ----- facts (clock-independent) -----------------------------------------------------------------

  messageFacts(i: number, k: number): MessageFacts {
    const live = this.live.sessions.get(i)?.messages[k];
    if (live) return { ...live.facts, i, k };
    const facts = this.vocabularyFacts(i, k);
    const { length, longEvery, longLength } = this.texts;
    const n = longEvery > 0 && pickIndex(longEvery, this.seed, i, k, 60) === 0 ? longLength : length;
    if (n > 0) {
      if (facts.question !== undefined) facts.question = lengthenText(`#${i}.${k} ${facts.question}`, n);
      facts.answer = lengthenText(`#${i}.${k} ${facts.answer}`, n);
    }
    return facts;
  }

  private vocabularyFacts(i: number, k: number): MessageFacts {
    const s = this.seed;
    const sk = this.skeleton;
    const channel = this.channelOf(i);
    const transfer = sk.transferAt.get(i);
    const time = sk.messageTime(i, k);
    const facts: MessageFacts = {
      i,
      k,
      time,
      answer: '',
      isLivechat: transfer >= 0 && k > transfer,
      isSwitch: k === transfer,
      processingTime: 20 + pickIndex(780, s, i, k, 30),
    };
    if (facts.isLivechat) {
      facts.question = pick(UNRECOGNISED_QUESTIONS.concat(INTENTS.flatMap((x) => x.questions)), s, i, k, 31);
      facts.operator = pick(AGENTS, s, i, 32);
      facts.answer = pick(AGENT_ANSWERS, s, i, k, 33);
      return facts;
    }
    if (facts.isSwitch) {
      facts.question = pick(OPERATOR_INTENT.questions, s, i, k, 35);
      facts.nlpClass = OPERATOR_INTENT.nlpClass;
      facts.confidence = round3(0.7 + unit(s, i, k, 36) * 0.29);
      facts.nlpState = OPERATOR_INTENT.nlpClass;
      facts.answer = OPERATOR_INTENT.answer;
      return facts;
    }
    if (k === 0 && channel !== 'chatwidget' && channel !== 'chatapi' && unit(s, i, 34) < 0.3) {
      facts.event = channel === 'resterisk' ? 'speechNotRecognized' : EVENTS[0]!;
      facts.nlpState = '/Start';
      facts.answer = INTENTS[0]!.answer;
      return facts;
    }
    if (unit(s, i, k, 37) < 0.01) facts.event = pick(EVENTS, s, i, k, 38);
    if (unit(s, i, k, 39) < (this.catchAll.share ?? UNRECOGNISED_SHARE)) {
      facts.question = this.catchAllQuestion(i, k).text;
      facts.nlpClass = FALLBACK_CLASS;
      facts.confidence = round3(0.05 + unit(s, i, k, 41) * 0.25);
      facts.answer = FALLBACK_ANSWER;
    } else {
      const intent = pickWeighted(
        INTENTS.filter((x) => x !== OPERATOR_INTENT),
        INTENT_WEIGHTS.filter((_, n) => INTENTS[n] !== OPERATOR_INTENT),
        unit(s, i, k, 42),
      );
      facts.question = pick(intent.questions, s, i, k, 43);
      facts.nlpClass = intent.nlpClass;
      facts.confidence = round3(0.55 + unit(s, i, k, 44) * 0.44);
      facts.answer = intent.answer;
    }
    facts.nlpState = facts.nlpClass;
    if (unit(s, i, k, 45) < 0.005)
      facts.exception = 'java.net.SocketTimeoutException: CRM did not answer in 5000 ms';
    return facts;
  }

  /** The delivery timeline of a message's answer; empty where the channel has no statuses. */
  statusSteps(i: number, k: number): StatusStep[] {
    const rules = STATUS_CHANNELS[this.channelOf(i)];
    if (!rules) return [];
    const s = this.seed;
    const base = this.skeleton.messageTime(i, k) + 20 + pickIndex(780, s, i, k, 30);
    const u = unit(s, i, k, 50);
    const steps: StatusStep[] = [];
    if (u < 0.03) return [{ status: 'NOT_SENT', at: base + 1_000 }];
    if (rules.sent) steps.push({ status: 'SENT', at: base + 300 });
    // a status the platform added later: the answer stays in it (its own draw, so the others keep theirs)
    if (this.newStatus && unit(s, i, k, 54) < this.newStatus.share) {
      steps.push({ status: this.newStatus.status, at: base + 2_000 });
      return steps;
    }
    const deliveredAt = base + 1_000 + pickIndex(59_000, s, i, k, 51);
    if (u < 0.07) {
      steps.push({ status: 'NOT_DELIVERED', at: base + 40_000 });
      return steps;
    }
    steps.push({ status: 'DELIVERED', at: deliveredAt });
    if (rules.read && unit(s, i, k, 52) < 0.75) {
      const wait = Math.min(READ_DELAY_MS, Math.floor(-Math.log(1 - unit(s, i, k, 53)) * 20 * 60_000));
      steps.push({ status: 'READ', at: deliveredAt + 1_000 + wait });
    }
    return steps;
  }

  statusAt(i: number, k: number, now: number): DeliveryStatus | undefined {
    let status: DeliveryStatus | undefined;
    for (const step of this.statusSteps(i, k)) if (step.at <= now) status = step.status;
    return status;
  }

  /** Seeded session labels with the time a person set them. */
  seededSessionLabels(i: number): { id: number; at: number }[] {
    const s = this.seed;
    if (unit(s, i, 60) >= 0.3) return [];
    const sk = this.skeleton;
    const count = sk.msgCount.get(i);
    const end = count > 0 ? sk.messageTime(i, count - 1) : sk.start.get(i);
    const first = SESSION_LABELS.indexOf(pickWeighted(SESSION_LABELS, SESSION_LABEL_WEIGHTS, unit(s, i, 61)));
    const out = [
      { id: SEEDED_SESSION_LABEL_IDS[first]!, at: end + 60_000 + pickIndex(LABEL_DELAY_MS, s, i, 62) },
    ];
    if (unit(s, i, 63) < 0.15) {
      const second = (first + 1 + pickIndex(SESSION_LABELS.length - 1, s, i, 64)) % SESSION_LABELS.length;
      out.push({
        id: SEEDED_SESSION_LABEL_IDS[second]!,
        at: end + 60_000 + pickIndex(LABEL_DELAY_MS, s, i, 65),
      });
    }
    return out;
  }

  seededMessageLabels(i: number, k: number): { id: number; at: number }[] {
    const s = this.seed;
    if (unit(s, i, k, 70) >= 0.06) return [];
    const at = this.skeleton.messageTime(i, k) + 60_000 + pickIndex(LABEL_DELAY_MS, s, i, k, 71);
    return [{ id: pick(SEEDED_MESSAGE_LABEL_IDS, s, i, k, 72), at }];
  }

  seededComment(i: number, k: number): { text: string; at: number } | undefined {
    const s = this.seed;
    if (unit(s, i, k, 80) >= 0.02) return undefined;
    const texts = ['Проверить ответ', 'Клиент недоволен', 'Good answer 👍', 'Добавить интент'];
    return {
      text: pick(texts, s, i, k, 81),
      at: this.skeleton.messageTime(i, k) + 300_000 + pickIndex(LABEL_DELAY_MS, s, i, k, 82),
    };
  }

  // ----- state as of a time -------------------------------------------------------------------------

  sessionLabelIds(i: number, now: number): number[] {
    const set = this.state.sessionLabelSets.get(i);
    const ids = set
      ? [...set]
      : this.seededSessionLabels(i)
          .filter((l) => l.at <= now)
          .map((l) => l.id);
    return ids.filter((id) => this.state.sessionLabels.has(id));
  }

  messageLabelIds(i: number, k: number, now: number): number[] {
    const set = this.state.messageLabelSets.get(this.skeleton.msgOffset.get(i) + k);
    const ids = set
      ? [...set]
      : this.seededMessageLabels(i, k)
          .filter((l) => l.at <= now)
          .map((l) => l.id);
    return ids.filter((id) => this.state.messageLabels.has(id));
  }

  commentAt(i: number, k: number, now: number): string | undefined {
    const key = this.skeleton.msgOffset.get(i) + k;
    if (this.state.comments.has(key)) return this.state.comments.get(key) ?? undefined;
    const seeded = this.seededComment(i, k);
    return seeded && seeded.at <= now ? seeded.text : undefined;
  }

  /** The branch session i is in for an experiment, if it joined. */
  experimentBranch(experiment: Experiment, i: number): string | undefined {
    const joined = experiment.joins.get(i);
    if (joined !== undefined) return joined;
    if (experiment.seededFrom === undefined) return undefined;
    const start = this.skeleton.start.get(i);
    if (start < experiment.seededFrom || start >= (experiment.seededTo ?? 0)) return undefined;
    if (this.skeleton.msgCount.get(i) === 0 || unit(this.seed, i, hashString(experiment.key), 90) >= 0.3)
      return undefined;
    return experiment.branches[pickIndex(experiment.branches.length, this.seed, i, 91)]?.key;
  }

  sessionData(i: number): Record<string, string> {
    const s = this.seed;
    const data: Record<string, string> = {};
    if (this.skeleton.msgCount.get(i) > 0 && !this.live.sessions.has(i)) {
      if (unit(s, i, 100) < 0.6) data['city'] = pick(CITIES, s, i, 101);
      if (unit(s, i, 102) < 0.5) data['plan'] = pick(PLANS, s, i, 103);
      if (unit(s, i, 104) < 0.4) data['utm_source'] = pick(SOURCES, s, i, 105);
      if (this.pushbackShare > 0 && unit(s, i, 106) < this.pushbackShare)
        data['pushbackId'] = this.pushbackId(i);
    }
    for (const experiment of this.state.experiments.values()) {
      const branch = this.experimentBranch(experiment, i);
      if (branch !== undefined) data[`exp_${experiment.key}`] = branch;
    }
    return data;
  }

  sessionResult(i: number): string {
    if (this.skeleton.transferAt.get(i) >= 0) return 'TRANSFERRED';
    if (this.skeleton.msgCount.get(i) === 0) return 'ABANDONED';
    return unit(this.seed, i, 110) < 0.8 ? SESSION_RESULTS[0]! : SESSION_RESULTS[2]!;
  }

  block(clientIndex: number): Block | undefined {
    return this.state.blocks.get(clientIndex);
  }

  // ----- wire records -------------------------------------------------------------------------------

  sessionLabelDtos(ids: number[]): { id: number; name: string; priority: number }[] {
    return ids.map((id) => ({ ...this.state.sessionLabels.get(id)! }));
  }

  messageLabelDtos(ids: number[]): unknown[] {
    return ids.map((id) => {
      const label = this.state.messageLabels.get(id)!;
      const group = this.state.labelGroups.get(label.groupId);
      return {
        id: label.id,
        name: label.name,
        priority: label.priority,
        group: group ? { id: group.id, name: group.name, priority: group.priority } : { name: '' },
      };
    });
  }

  /** SessionInfo as of `now` (the session must have started by then). */
  sessionRecord(
    i: number,
    now: number,
    options: { data?: boolean; labels?: boolean } = {},
  ): Record<string, unknown> {
    const sk = this.skeleton;
    const start = sk.start.get(i);
    const visible = sk.visibleMessageCount(i, now);
    const channel = this.channelOf(i);
    let firstQuestion: string | undefined;
    let lastQuestion: string | undefined;
    for (let k = 0; k < visible; k++) {
      const question = this.messageFacts(i, k).question;
      if (question !== undefined) {
        firstQuestion ??= question;
        lastQuestion = question;
      }
    }
    const transfer = sk.transferAt.get(i);
    const record: Record<string, unknown> = {
      sessionId: this.sessionId(i),
      projectShortName: this.name,
      channelType: channel,
      botId: this.botIdOf(i),
      client: this.clientInfo(sk.client.get(i)),
      startTime: iso(start),
      isLivechat: transfer >= 0 && visible > transfer,
      questionCount: visible,
      duration: visible > 0 ? sk.messageTime(i, visible - 1) - start : 0,
    };
    if (firstQuestion !== undefined) record['firstQuestion'] = firstQuestion;
    if (lastQuestion !== undefined) record['lastQuestion'] = lastQuestion;
    if (channel === 'resterisk') {
      record['isCallIncoming'] = unit(this.seed, i, 120) < 0.6;
      if (!record['isCallIncoming']) record['callTaskId'] = 5000 + pickIndex(50, this.seed, i, 121);
      record['audioFileUrl'] = `https://records.example.invalid/${this.sessionId(i)}.wav`;
    }
    record['sessionResult'] = this.sessionResult(i);
    if (options.data) record['sessionData'] = this.sessionData(i);
    if (options.labels) record['labels'] = this.sessionLabelDtos(this.sessionLabelIds(i, now));
    return record;
  }

  private messageBody(i: number, k: number, now: number): Record<string, unknown> {
    const f = this.messageFacts(i, k);
    const record: Record<string, unknown> = {
      timestamp: iso(f.time),
      questionId: this.questionId(i, k),
      isLivechat: f.isLivechat,
    };
    if (f.question !== undefined) record['question'] = f.question;
    record['textAnswer'] = f.answer;
    if (f.event !== undefined) record['event'] = f.event;
    if (f.operator) record['operatorInfo'] = { ...f.operator };
    if (f.nlpClass !== undefined || f.nlpState !== undefined) {
      const nlp: Record<string, unknown> = {};
      if (f.nlpState !== undefined) nlp['nlpState'] = f.nlpState;
      if (f.nlpClass !== undefined) nlp['nlpClass'] = f.nlpClass;
      if (f.confidence !== undefined) nlp['confidence'] = f.confidence;
      nlp['fromState'] = '/';
      record['nlpInfo'] = nlp;
    }
    record['requestData'] =
      f.event !== undefined && f.question === undefined ? { event: f.event } : { query: f.question ?? '' };
    const replies: Record<string, unknown>[] = [{ type: 'text', text: f.answer, state: f.nlpState ?? '/' }];
    if (f.isSwitch)
      replies.push({ type: 'switch', firstMessage: f.question ?? '', destination: 'operators' });
    record['responseData'] = { replies, answer: f.answer };
    if (f.exception !== undefined) record['exception'] = f.exception;
    record['processingTime'] = f.processingTime;
    record['labels'] = this.messageLabelDtos(this.messageLabelIds(i, k, now));
    const comment = this.commentAt(i, k, now);
    if (comment !== undefined) record['comment'] = comment;
    return record;
  }

  /** Message as returned by messages/by-session and by-client: with the delivery status. */
  messageRecord(i: number, k: number, now: number): Record<string, unknown> {
    const record = this.messageBody(i, k, now);
    const status = this.statusAt(i, k, now);
    if (status !== undefined) record['status'] = status;
    record['sessionId'] = this.sessionId(i);
    return record;
  }

  /** ExtendedMessage as returned by messages/filter: session context, no delivery status. */
  extendedMessageRecord(i: number, k: number, now: number): Record<string, unknown> {
    const sk = this.skeleton;
    const head: Record<string, unknown> = {
      sessionId: this.sessionId(i),
      projectShortName: this.name,
      channelType: this.channelOf(i),
      botId: this.botIdOf(i),
      client: this.clientInfo(sk.client.get(i)),
      sessionStartTime: iso(sk.start.get(i)),
    };
    const body = this.messageBody(i, k, now);
    return { ...head, ...body, sessionLabels: this.sessionLabelDtos(this.sessionLabelIds(i, now)) };
  }

  /** ClientExtendedInfo as of `now`. */
  clientRecord(clientIndex: number, now: number): Record<string, unknown> {
    const sk = this.skeleton;
    const first = sk.clientCreator.get(clientIndex);
    const last = this.lastSessionOf(clientIndex, now);
    const record: Record<string, unknown> = {
      ...this.clientInfo(clientIndex),
      accountId: this.accountId,
      projectShortName: this.name,
      channelType: CHANNELS[sk.clientChannel.get(clientIndex)],
      botId: this.botIdOf(first),
      lastSessionId: this.sessionId(last),
      joinDate: iso(sk.start.get(first)),
      lastVisitDate: iso(sk.start.get(last)),
      isBlocked: false,
    };
    const block = this.block(clientIndex);
    if (block) {
      record['isBlocked'] = true;
      if (block.blockReason !== undefined) record['blockReason'] = block.blockReason;
      record['blockedBy'] = block.blockedBy;
      record['blockDate'] = iso(block.blockDate);
    }
    return record;
  }

  /** The client's latest session that started at or before `now`. */
  lastSessionOf(clientIndex: number, now: number): number {
    const sk = this.skeleton;
    let last = sk.clientLastSession.get(clientIndex);
    if (sk.start.get(last) <= now) return last;
    // only in the rare case the skeleton grew past `now`: walk back
    for (last--; last > sk.clientCreator.get(clientIndex); last--) {
      if (sk.client.get(last) === clientIndex && sk.start.get(last) <= now) return last;
    }
    return sk.clientCreator.get(clientIndex);
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
