// The Chat API of one channel, as the pipeline reads it: the events long poll (always with an explicit `ts`:
// without it the server answers from a cursor it shares with every caller of the channel, the customer's own
// app included, whose events this reader would take), a client's history, and its unread count. Its client is a
// profile of src/http/ (the token in the path; retries, Retry-After, 429 backoff, timeouts, redaction).
import { z } from 'zod';
import type { ChatApiConfig } from '../../config.js';
import { EtlError } from '../../errors.js';
import { PLATFORM_ERROR_SHAPES } from '../../http/error-shapes.js';
import { HttpTransport } from '../../http/http-transport.js';
import type { Logger } from '../../log.js';
import type { ChatApiChannel } from '../../settings/chatapi-channels.js';

/** The server holds an events call up to 30 s when there is nothing to answer: the timeout allows for it. */
const LONG_POLL_TIMEOUT_MS = 45_000;
/** The most events one answer carries (the seed's limit). */
export const EVENTS_PER_ANSWER = 250;

const eventSchema = z
  .object({
    type: z.string().min(1),
    clientId: z.string().nullish(),
    cid: z.string().nullish(),
    questionId: z.string().nullish(),
    timestamp: z.union([z.number(), z.string().min(1)]),
    event: z.record(z.string(), z.unknown()).nullish(),
  })
  .passthrough();
export type ChatApiEvent = z.infer<typeof eventSchema>;

const eventsAnswerSchema = z.object({ events: z.array(z.unknown()) }).passthrough();

const historyMessageSchema = z
  .object({
    questionId: z.string().min(1),
    timestamp: z.union([z.number(), z.string().min(1)]),
    type: z.string().min(1),
    query: z.string().nullish(),
    event: z.string().nullish(),
    replies: z.array(z.unknown()).nullish(),
    status: z.string().nullish(),
  })
  .passthrough();
export type ChatApiHistoryMessage = z.infer<typeof historyMessageSchema>;

const historyAnswerSchema = z
  .object({
    clientId: z.string().nullish(),
    paging: z.object({ page: z.number(), size: z.number(), totalCount: z.number() }).passthrough(),
    messages: z.array(z.unknown()),
  })
  .passthrough();

/** An element of an answer that does not fit the contract: kept with the reason, never dropped silently. */
export interface ChatApiReject {
  reason: string;
  raw: unknown;
}

export interface ChatApiClient {
  readonly channel: string;
  /** Events strictly after `ts` (epoch ms), oldest first, at most 250; blocks up to 30 s when there are none. */
  events(ts: number): Promise<{ events: ChatApiEvent[]; rejects: ChatApiReject[] }>;
  /** One page (from 0) of a client's history in [from, to), oldest first. */
  history(
    clientId: string,
    range: { from: number; to: number },
    page: number,
    size: number,
  ): Promise<{
    messages: ChatApiHistoryMessage[];
    rejects: ChatApiReject[];
    totalCount: number;
    /** The size the server used (it may cap the one asked). */
    pageSize: number;
  }>;
  /** Bot and agent messages of the client not READ. */
  unreadCount(clientId: string): Promise<number>;
  /** Requests sent so far, retries included. */
  readonly requests: number;
  close(): Promise<void>;
}

export function createChatApiClient(options: {
  config: ChatApiConfig;
  channel: ChatApiChannel;
  concurrency?: number;
  timeoutMs?: number;
  retries?: number;
  log?: Logger;
  backoffBaseMs?: number;
}): ChatApiClient {
  const { config, channel } = options;
  const prefix = `${config.baseUrl}${config.path}/${encodeURIComponent(channel.token)}`;
  const http = new HttpTransport({
    baseUrl: config.baseUrl,
    secret: channel.token,
    concurrency: options.concurrency ?? 4,
    timeoutMs: Math.max(options.timeoutMs ?? 30_000, LONG_POLL_TIMEOUT_MS),
    retries: options.retries,
    log: options.log,
    backoffBaseMs: options.backoffBaseMs,
    profile: {
      name: `Chat API (channel ${channel.name})`,
      auth: { kind: 'path' },
      secretName: 'token',
      baseUrlSetting: config.baseUrlSetting ?? 'REPORTER_BASE_URL',
      urlPrefix: () => prefix,
      errorShapes: PLATFORM_ERROR_SHAPES,
      authError: (status, detail) =>
        new EtlError(
          'chatapi.auth',
          `the Chat API refused the token of channel ${channel.name} with ${status}${detail}: check its entry in ` +
            `REPORTER_CHATAPI_CHANNELS, and REPORTER_CHATAPI_BASE_URL / REPORTER_CHATAPI_PATH (${config.path})`,
        ),
    },
  });
  return {
    channel: channel.name,
    get requests() {
      return http.requests;
    },
    async events(ts) {
      const answer = eventsAnswerSchema.safeParse(
        await http.json({ method: 'GET', op: 'events', query: { all: true, ts } }),
      );
      if (!answer.success) throw badAnswer(channel.name, 'events', answer.error);
      const { valid, rejects } = splitValid(answer.data.events, eventSchema);
      return { events: valid, rejects };
    },
    async history(clientId, range, page, size) {
      const answer = historyAnswerSchema.safeParse(
        await http.json({
          method: 'GET',
          op: `client/${encodeURIComponent(clientId)}/history`,
          query: {
            startTime: new Date(range.from).toISOString(),
            endTime: new Date(range.to).toISOString(),
            page,
            size,
          },
        }),
      );
      if (!answer.success) throw badAnswer(channel.name, 'history', answer.error);
      const { valid, rejects } = splitValid(answer.data.messages, historyMessageSchema);
      return {
        messages: valid,
        rejects,
        totalCount: answer.data.paging.totalCount,
        pageSize: answer.data.paging.size,
      };
    },
    async unreadCount(clientId) {
      const answer = z
        .object({ count: z.number().int().min(0) })
        .passthrough()
        .safeParse(
          await http.json({
            method: 'GET',
            op: `client/${encodeURIComponent(clientId)}/message-not-read-count`,
          }),
        );
      if (!answer.success) throw badAnswer(channel.name, 'message-not-read-count', answer.error);
      return answer.data.count;
    },
    close: () => http.close(),
  };
}

function splitValid<T>(
  items: readonly unknown[],
  schema: z.ZodType<T>,
): { valid: T[]; rejects: ChatApiReject[] } {
  const valid: T[] = [];
  const rejects: ChatApiReject[] = [];
  for (const raw of items) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) valid.push(parsed.data);
    else rejects.push({ reason: z.prettifyError(parsed.error).replace(/\s+/g, ' '), raw });
  }
  return { valid, rejects };
}

function badAnswer(channel: string, op: string, error: z.ZodError): EtlError {
  return new EtlError(
    'chatapi.bad_answer',
    `the Chat API (channel ${channel}) answered ${op} with a body that does not fit its contract: ${z.prettifyError(error).replace(/\s+/g, ' ')}`,
    { kind: 'transient' },
  );
}
