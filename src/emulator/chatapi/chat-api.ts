// The Chat API side of the emulated platform: its channels, and what a channel's clients said and were
// answered, read from the same project data as the Reporter (a dialogue becomes a live session of channel
// type `chatapi`; the generated `chatapi` sessions are the history of the project's first channel). Holds
// what the Chat API alone keeps: saved states, statuses clients set, the events cursor, webhook deliveries.
// Times are epoch ms here; the routes write them as the wire wants.
import { ApiError } from '../api-error.js';
import type { Emulator } from '../emulator.js';
import type { ProjectData } from '../project-data.js';
import { MAX_MESSAGES, MAX_SESSION_MS } from '../skeleton.js';
import { CHANNELS } from '../vocabulary.js';
import { agentReply, answerEvent, answerQuery } from './bot.js';
import { type ChatApiChannelOptions, defaultChatApiToken } from './channels.js';
import {
  answerTime,
  type ChatStatus,
  ChatStatusOverrides,
  type ChatStatusValue,
  chatStatusAt,
} from './chat-statuses.js';
import { Prompter } from './prompter.js';
import { WebhookSender, type WebhookSettings } from './webhook.js';

const CHATAPI_CHANNEL = CHANNELS.indexOf('chatapi');
/** A client's dialogue continues in the same session while it speaks again within this time. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** The most events one events answer carries. */
export const EVENTS_PAGE = 250;

export interface ChatChannel {
  token: string;
  project: ProjectData;
  /** The project's first channel: the generated `chatapi` sessions are its history. */
  primary: boolean;
  webhookUrl?: string;
  /** Where the Prompter's answer options are POSTed (none: recorded as failed deliveries). */
  prompterWebhookUrl?: string;
  /** Clients that first spoke through this channel, by their id. */
  readonly clients: Map<string, number>;
  /** Saved application states by client id. */
  readonly states: Map<string, unknown>;
  /** Where an events call without `ts` starts: after the last event the previous one answered. */
  cursor: EventKey;
}

/** The order of events: answer time, then creation order of live messages, then session and message. */
export interface EventKey {
  at: number;
  seq: number;
  i: number;
  k: number;
}

export interface ChatRequest {
  clientId: string;
  query?: string;
  event?: string;
  data?: Record<string, unknown>;
  cid?: string;
}

export interface HistoryEntry {
  questionId: string;
  at: number;
  type: 'client' | 'bot' | 'operator';
  query?: string;
  event?: string;
  replies?: Record<string, unknown>[];
  status?: ChatStatusValue;
}

export interface ChatEvent extends EventKey {
  type: 'botResponse' | 'operatorResponse';
  clientId: string;
  cid?: string;
  questionId: string;
  event: Record<string, unknown>;
}

export interface ChatApiSettings extends WebhookSettings {
  /** The longest an events call blocks with nothing to answer (ms). */
  eventsMaxWaitMs: number;
}

function compareKeys(a: EventKey, b: EventKey): number {
  return a.at - b.at || a.seq - b.seq || a.i - b.i || a.k - b.k;
}

/** The replies of the answer to message (i, k), as the bot (or agent) sent them. */
export function repliesOf(p: ProjectData, i: number, k: number): Record<string, unknown>[] {
  const f = p.messageFacts(i, k);
  if (f.answer === '') return [];
  const replies: Record<string, unknown>[] = [{ type: 'text', text: f.answer, state: f.nlpState ?? '/' }];
  if (f.isSwitch) replies.push({ type: 'switch', firstMessage: f.question ?? '', destination: 'operators' });
  return replies;
}

export class ChatApi {
  readonly channels = new Map<string, ChatChannel>();
  readonly statuses = new ChatStatusOverrides();
  readonly webhooks: WebhookSender;
  /** The Prompter API on the same channels (its own deliveries and ground truth). */
  readonly prompter: Prompter;
  readonly settings: ChatApiSettings;
  private readonly emulator: Emulator;
  private wake: (() => void) | undefined;
  private changed: Promise<void>;

  constructor(emulator: Emulator, channels: ChatApiChannelOptions[], settings: ChatApiSettings) {
    this.emulator = emulator;
    this.settings = settings;
    this.webhooks = new WebhookSender(settings);
    this.prompter = new Prompter(settings);
    this.changed = this.nextChange();
    const start = emulator.options.now;
    for (const options of channels) {
      const project = emulator.project(options.project ?? emulator.options.projects[0]!);
      const primary = ![...this.channels.values()].some((c) => c.project === project);
      this.channels.set(options.token, {
        token: options.token,
        project,
        primary,
        ...(options.webhookUrl === undefined ? {} : { webhookUrl: options.webhookUrl }),
        ...(options.prompterWebhookUrl === undefined
          ? {}
          : { prompterWebhookUrl: options.prompterWebhookUrl }),
        clients: new Map(),
        states: new Map(),
        cursor: { at: start, seq: 0, i: Number.POSITIVE_INFINITY, k: Number.POSITIVE_INFINITY },
      });
    }
  }

  /** One channel per project with its default token. */
  static defaultChannels(projects: string[]): ChatApiChannelOptions[] {
    return projects.map((project) => ({ token: defaultChatApiToken(project), project }));
  }

  channel(token: string): ChatChannel {
    const channel = this.channels.get(token);
    if (!channel)
      throw new ApiError(
        401,
        'chatapi.unauthorized.invalid_token',
        'The channel token is not a Chat API channel',
      );
    return channel;
  }

  /** The channel a session's dialogue went through (undefined: not a Chat API session of any channel). */
  ownerOf(p: ProjectData, i: number): string | undefined {
    if (p.channelOf(i) !== 'chatapi') return undefined;
    const live = p.live.sessions.get(i);
    if (live) return live.token;
    for (const channel of this.channels.values())
      if (channel.project === p && channel.primary) return channel.token;
    return undefined;
  }

  /** The client index of `clientId` on this channel, if the client ever spoke on it. */
  clientIndex(channel: ChatChannel, clientId: string): number | undefined {
    const live = channel.clients.get(clientId);
    if (live !== undefined) return live;
    if (!channel.primary) return undefined;
    const p = channel.project;
    const c = p.clientIndex(clientId);
    if (c === undefined || p.skeleton.isLiveClient(c)) return undefined;
    return p.channelOf(p.skeleton.clientCreator.get(c)) === 'chatapi' ? c : undefined;
  }

  /** The client's sessions on this channel that started by `now`, oldest first. */
  sessionsOf(channel: ChatChannel, c: number, now: number): number[] {
    const p = channel.project;
    const sk = p.skeleton;
    const out: number[] = [];
    const last = p.lastSessionOf(c, now);
    for (let i = sk.clientCreator.get(c); i <= last; i++) {
      if (sk.client.get(i) !== c || p.withheld.has(i) || sk.start.get(i) > now) continue;
      if (this.ownerOf(p, i) === channel.token) out.push(i);
    }
    return out;
  }

  /** The client's history as of `now`: each question, then its answer once it reached the client. */
  history(channel: ChatChannel, c: number, now: number): HistoryEntry[] {
    const p = channel.project;
    const out: HistoryEntry[] = [];
    for (const i of this.sessionsOf(channel, c, now)) {
      const visible = p.skeleton.visibleMessageCount(i, now);
      for (let k = 0; k < visible; k++) {
        const f = p.messageFacts(i, k);
        const questionId = p.questionId(i, k);
        const asked: HistoryEntry = { questionId, at: f.time, type: 'client' };
        if (f.question !== undefined) asked.query = f.question;
        if (f.event !== undefined) asked.event = f.event;
        out.push(asked);
        const at = answerTime(p, i, k);
        if (f.answer === '' || at > now) continue;
        const status = chatStatusAt(p, this.statuses, i, k, now);
        out.push({
          questionId,
          at,
          type: f.isLivechat ? 'operator' : 'bot',
          replies: repliesOf(p, i, k),
          ...(status === undefined ? {} : { status }),
        });
      }
    }
    return out.sort((a, b) => a.at - b.at);
  }

  /** The answered message (i, k) of the client behind a questionId, if its answer exists by `now`. */
  answeredMessage(
    channel: ChatChannel,
    c: number,
    questionId: string,
    now: number,
  ): { i: number; k: number } | undefined {
    const p = channel.project;
    const at = p.messageIndex(questionId);
    if (!at || p.skeleton.client.get(at.i) !== c || this.ownerOf(p, at.i) !== channel.token) return undefined;
    if (at.k >= p.skeleton.visibleMessageCount(at.i, now)) return undefined;
    if (p.messageFacts(at.i, at.k).answer === '' || answerTime(p, at.i, at.k) > now) return undefined;
    return at;
  }

  /** Bot and agent messages of the client whose status is not READ. */
  notReadCount(channel: ChatChannel, c: number, now: number): number {
    return this.history(channel, c, now).filter((m) => m.type !== 'client' && m.status !== 'READ').length;
  }

  /**
   * A client's request: the bot answers it (or, once the dialog went to an agent, an agent replies later);
   * the message is appended to the client's live session (a new one after SESSION_IDLE_MS of silence).
   */
  converse(channel: ChatChannel, request: ChatRequest, now: number): Record<string, unknown> {
    const p = channel.project;
    const sk = p.skeleton;
    let c = this.clientIndex(channel, request.clientId);
    let i: number | undefined;
    if (c !== undefined) {
      const last = p.lastSessionOf(c, now);
      const live = p.live.sessions.get(last);
      const count = sk.msgCount.get(last);
      const lastAt = count > 0 ? sk.messageTime(last, count - 1) : sk.start.get(last);
      if (
        live?.token === channel.token &&
        count < MAX_MESSAGES &&
        now - lastAt < SESSION_IDLE_MS &&
        now - sk.start.get(last) < MAX_SESSION_MS - SESSION_IDLE_MS
      )
        i = last;
    }
    const newSessionStarted = i === undefined;
    if (i === undefined) {
      const added = sk.addLiveSession(now, CHATAPI_CHANNEL, c);
      i = added.i;
      if (c === undefined) {
        c = added.clientIndex;
        p.live.clientIds.set(c, request.clientId);
      }
      channel.clients.set(request.clientId, c);
      p.live.sessions.set(i, { token: channel.token, clientIndex: c, messages: [] });
    }
    const live = p.live.sessions.get(i)!;
    const k = sk.appendLiveMessage(i, now);
    const time = sk.messageTime(i, k);
    const transfer = sk.transferAt.get(i);
    const said = {
      ...(request.query === undefined ? {} : { question: request.query }),
      ...(request.event === undefined ? {} : { event: request.event }),
    };
    const seq = p.live.nextSeq();
    if (transfer >= 0 && k > transfer) {
      const reply = agentReply(p.seed, i, k);
      live.messages.push({
        facts: {
          time,
          ...said,
          answer: reply.text,
          isLivechat: true,
          isSwitch: false,
          operator: reply.operator,
          processingTime: reply.delayMs,
          answerAt: time + reply.delayMs,
        },
        seq,
        ...(request.cid === undefined ? {} : { cid: request.cid }),
        ...(request.data === undefined ? {} : { requestData: request.data }),
      });
    } else {
      const bot = request.query !== undefined ? answerQuery(request.query) : answerEvent(request.event ?? '');
      if (bot.isSwitch) sk.transferAt.set(i, k);
      live.messages.push({
        facts: {
          time,
          ...said,
          ...(bot.nlpClass === undefined ? {} : { nlpClass: bot.nlpClass }),
          nlpState: bot.nlpState,
          ...(bot.confidence === undefined ? {} : { confidence: bot.confidence }),
          answer: bot.answer,
          isLivechat: false,
          isSwitch: bot.isSwitch,
          processingTime: 20 + (seq % 100),
          answerAt: time,
        },
        seq,
        ...(request.cid === undefined ? {} : { cid: request.cid }),
        ...(request.data === undefined ? {} : { requestData: request.data }),
      });
    }
    p.state.touch();
    this.notify();
    const f = p.messageFacts(i, k);
    const data: Record<string, unknown> = {};
    if (!f.isLivechat) {
      if (f.nlpClass !== undefined) data['nlpClass'] = f.nlpClass;
      if (f.confidence !== undefined) data['confidence'] = f.confidence;
    }
    data['replies'] = f.isLivechat ? [] : repliesOf(p, i, k);
    data['answer'] = f.isLivechat ? '' : f.answer;
    data['newSessionStarted'] = newSessionStarted;
    data['debugData'] = [];
    data['endSession'] = false;
    return {
      token: channel.token,
      clientId: request.clientId,
      questionId: p.questionId(i, k),
      data,
      timestamp: time,
      blockForm: false,
      ...(request.cid === undefined ? {} : { cid: request.cid }),
    };
  }

  /** Every event of the channel after `after` and by `now`, oldest first (no filter, no cap). */
  eventsAfter(channel: ChatChannel, after: EventKey, now: number): ChatEvent[] {
    const p = channel.project;
    const sk = p.skeleton;
    const out: ChatEvent[] = [];
    const [lo, hi] = sk.sessionsStartingIn(after.at - MAX_SESSION_MS - 3_600_000, now);
    for (let i = lo; i < hi; i++) {
      if (p.withheld.has(i) || this.ownerOf(p, i) !== channel.token) continue;
      const live = p.live.sessions.get(i);
      const visible = sk.visibleMessageCount(i, now);
      for (let k = 0; k < visible; k++) {
        const f = p.messageFacts(i, k);
        if (f.answer === '') continue;
        const message = live?.messages[k];
        const key: EventKey = { at: answerTime(p, i, k), seq: message?.seq ?? 0, i, k };
        if (key.at > now || compareKeys(key, after) <= 0) continue;
        const event: Record<string, unknown> = { replies: repliesOf(p, i, k), answer: f.answer };
        if (f.isLivechat && f.operator) event['operator'] = { ...f.operator };
        if (!f.isLivechat && f.nlpClass !== undefined) event['nlpClass'] = f.nlpClass;
        if (!f.isLivechat && f.confidence !== undefined) event['confidence'] = f.confidence;
        out.push({
          ...key,
          type: f.isLivechat ? 'operatorResponse' : 'botResponse',
          clientId: p.clientId(sk.client.get(i)),
          ...(message?.cid === undefined ? {} : { cid: message.cid }),
          questionId: p.questionId(i, k),
          event,
        });
      }
    }
    return out.sort(compareKeys);
  }

  /**
   * What one events call answers: the events after `ts` (epoch ms; none: after the channel's cursor), only
   * agent replies unless `all`, only those of connection `cid` when given; at most EVENTS_PAGE, cut at a
   * millisecond boundary when it can be (so `ts` = the last event's time loses nothing). Without `ts` the
   * channel's cursor moves past what is answered.
   */
  takeEvents(
    channel: ChatChannel,
    query: { ts?: number; all: boolean; cid?: string },
    now: number,
  ): ChatEvent[] {
    const after: EventKey =
      query.ts === undefined ? channel.cursor : { at: query.ts, seq: Number.POSITIVE_INFINITY, i: 0, k: 0 };
    let events = this.eventsAfter(channel, after, now).filter(
      (e) => (query.all || e.type === 'operatorResponse') && (query.cid === undefined || e.cid === query.cid),
    );
    if (events.length > EVENTS_PAGE) {
      const cut = events[EVENTS_PAGE]!.at;
      const whole = events.slice(0, EVENTS_PAGE).filter((e) => e.at < cut);
      events = whole.length > 0 ? whole : events.slice(0, EVENTS_PAGE);
    }
    const last = events[events.length - 1];
    if (query.ts === undefined && last) channel.cursor = { at: last.at, seq: last.seq, i: last.i, k: last.k };
    return events;
  }

  /**
   * The long poll: answers as soon as `take` finds events, else waits for a change (a dialogue, the clock)
   * until `maxWaitMs` passed or `signal` aborts; then answers what there is (maybe nothing).
   */
  async waitForEvents(take: () => ChatEvent[], maxWaitMs: number, signal: AbortSignal): Promise<ChatEvent[]> {
    const deadline = Date.now() + maxWaitMs;
    for (;;) {
      const events = take();
      const left = deadline - Date.now();
      if (events.length > 0 || left <= 0 || signal.aborted) return events;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.min(left, 100));
        function done() {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolve();
        }
        signal.addEventListener('abort', done, { once: true });
        void this.changed.then(done);
      });
    }
  }

  /** Sets a status on a client's answered message (already checked). */
  setStatus(channel: ChatChannel, questionId: string, status: ChatStatus): void {
    this.statuses.put(channel.project, questionId, status);
    channel.project.state.touch();
  }

  /** An asynchronous request: answered like converse, the payload POSTed to the channel's webhook. */
  converseAsync(
    channel: ChatChannel,
    request: ChatRequest,
    now: number,
    wirePayload: (payload: Record<string, unknown>) => Record<string, unknown>,
  ): string {
    const payload = this.converse(channel, request, now);
    this.webhooks.send(channel.token, channel.webhookUrl, wirePayload(payload));
    return String(payload['questionId']);
  }

  async close(): Promise<void> {
    this.notify();
    await this.webhooks.close();
    await this.prompter.close();
  }

  private nextChange(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.changed = this.nextChange();
    wake?.();
  }

  /** The emulator this Chat API belongs to (its clock). */
  get world(): Emulator {
    return this.emulator;
  }
}
