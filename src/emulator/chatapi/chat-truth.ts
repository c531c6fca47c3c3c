// Ground truth of the Chat API, for tests of a client that reads it (a sync source, an events job, a
// webhook receiver): per channel and client, every message with its status as of the clock, the not-read
// counts, the events, the webhook deliveries and the Prompter's questions and deliveries; read from the emulator's data without the HTTP layer.
import type { Emulator } from '../emulator.js';
import { MAX_SESSION_MS } from '../skeleton.js';
import type { ChatChannel } from './chat-api.js';
import type { PrompterAsked } from './prompter.js';
import type { WebhookAttempt } from './webhook.js';

export interface ChatMessageTruth {
  questionId: string;
  /** ISO 8601 with the Z suffix (the wire writes the same instant without a zone). */
  timestamp: string;
  type: 'client' | 'bot' | 'operator';
  query?: string;
  event?: string;
  status?: string;
}

export interface ChatClientTruth {
  clientId: string;
  /** The client's sessions on this channel, as the Reporter names them. */
  sessionIds: string[];
  messages: ChatMessageTruth[];
  /** Bot and agent messages whose status is not READ (message-not-read-count). */
  notRead: number;
}

export interface ChatEventTruth {
  type: 'botResponse' | 'operatorResponse';
  clientId: string;
  cid?: string;
  questionId: string;
  timestamp: string;
}

export interface ChatChannelTruth {
  token: string;
  project: string;
  asOf: string;
  /** Clients with a message (question or answer) in the window, by client id. */
  clients: ChatClientTruth[];
}

interface Window {
  from?: number;
  to?: number;
  now?: number;
}

const iso = (t: number): string => new Date(t).toISOString();

/** One client's truth on a channel as of `now` (the clock by default); undefined for an unknown client. */
export function chatClientTruth(
  emulator: Emulator,
  token: string,
  clientId: string,
  now = emulator.now(),
): ChatClientTruth | undefined {
  const chat = emulator.chatApi;
  const channel = chat.channel(token);
  const c = chat.clientIndex(channel, clientId);
  if (c === undefined) return undefined;
  const p = channel.project;
  const messages = chat.history(channel, c, now).map((m) => {
    const row: ChatMessageTruth = { questionId: m.questionId, timestamp: iso(m.at), type: m.type };
    if (m.query !== undefined) row.query = m.query;
    if (m.event !== undefined) row.event = m.event;
    if (m.status !== undefined) row.status = m.status;
    return row;
  });
  return {
    clientId,
    sessionIds: chat.sessionsOf(channel, c, now).map((i) => p.sessionId(i)),
    messages,
    notRead: messages.filter((m) => m.type !== 'client' && m.status !== 'READ').length,
  };
}

/** Client ids of the channel with a question in [from, to) (all time by default), as of `now`. */
export function chatClientsSeen(emulator: Emulator, token: string, window: Window = {}): string[] {
  const channel = emulator.chatApi.channel(token);
  const now = window.now ?? emulator.now();
  return [...clientsIn(emulator, channel, window, now)].map((c) => channel.project.clientId(c)).sort();
}

function clientsIn(emulator: Emulator, channel: ChatChannel, window: Window, now: number): Set<number> {
  const p = channel.project;
  const sk = p.skeleton;
  const from = window.from ?? Number.NEGATIVE_INFINITY;
  const to = Math.min(window.to ?? Number.POSITIVE_INFINITY, now + 1);
  const [lo, hi] = sk.sessionsStartingIn(from - MAX_SESSION_MS, to);
  const out = new Set<number>();
  for (let i = lo; i < hi; i++) {
    if (p.withheld.has(i) || emulator.chatApi.ownerOf(p, i) !== channel.token) continue;
    const visible = sk.visibleMessageCount(i, now);
    for (let k = 0; k < visible; k++) {
      const t = sk.messageTime(i, k);
      if (t >= from && t < to) {
        out.add(sk.client.get(i));
        break;
      }
    }
  }
  return out;
}

/** The channel's clients with a question in the window, each with its whole history as of `now`. */
export function chatChannelTruth(emulator: Emulator, token: string, window: Window = {}): ChatChannelTruth {
  const now = window.now ?? emulator.now();
  return {
    token,
    project: emulator.chatApi.channel(token).project.name,
    asOf: iso(now),
    clients: chatClientsSeen(emulator, token, { ...window, now }).map(
      (id) => chatClientTruth(emulator, token, id, now)!,
    ),
  };
}

/** Every event of the channel answered after `after` (epoch ms, exclusive) and by `now`, oldest first. */
export function chatEventsTruth(
  emulator: Emulator,
  token: string,
  options: { after?: number; now?: number; all?: boolean } = {},
): ChatEventTruth[] {
  const chat = emulator.chatApi;
  const now = options.now ?? emulator.now();
  const after = { at: options.after ?? Number.NEGATIVE_INFINITY, seq: Number.POSITIVE_INFINITY, i: 0, k: 0 };
  return chat
    .eventsAfter(chat.channel(token), after, now)
    .filter((e) => options.all !== false || e.type === 'operatorResponse')
    .map((e) => ({
      type: e.type,
      clientId: e.clientId,
      ...(e.cid === undefined ? {} : { cid: e.cid }),
      questionId: e.questionId,
      timestamp: iso(e.at),
    }));
}

/** Every webhook delivery attempt of the channel so far (resends included), in the order sent. */
export function webhookAttempts(emulator: Emulator, token: string): WebhookAttempt[] {
  return emulator.chatApi.webhooks.attempts.filter((a) => a.token === token).map((a) => ({ ...a }));
}

/** Every Prompter question asked on the channel so far, with the options the emulator answered, in order. */
export function prompterTruth(emulator: Emulator, token: string): PrompterAsked[] {
  return emulator.chatApi.prompter.asked.filter((a) => a.token === token).map((a) => structuredClone(a));
}

/** Every Prompter webhook delivery attempt of the channel so far (resends included), in the order sent. */
export function prompterWebhookAttempts(emulator: Emulator, token: string): WebhookAttempt[] {
  return emulator.chatApi.prompter.webhooks.attempts.filter((a) => a.token === token).map((a) => ({ ...a }));
}
