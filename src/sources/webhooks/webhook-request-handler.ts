// The receiver's door: what a request must be before its body is read (a known route, POST, the key, a
// declared length within the limit), then its body read up to the limit, its nesting checked, parsed,
// checked against the payload and spooled; 200 only once the spool has it on disk. A request refused before
// its body (401 without the key, 413 on its Content-Length) or cut at the limit is answered with `connection:
// close`: its body is never read or drained. A body that does not fit is kept in etl_rejects (400, 413).

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChatApiChannel } from '../../settings/chatapi-channels.js';
import { parseJsonBigIntegers } from '../../text/parse-json-big-integers.js';
import { parseJsonText } from '../../text/parse-json-text.js';
import { nestsDeeperThan } from './json-nesting.js';
import { type RequestBody, readRequestBody } from './read-request-body.js';
import { redactRejectReason, redactTokens } from './redact-tokens.js';
import { MAX_KEPT_BYTES, type SpoolRecord } from './spool.js';
import {
  type ChatApiPayload,
  chatApiPayload,
  describeProblems,
  prompterPayload,
  wellFormed,
} from './webhook-payloads.js';

/** A body larger than this is refused (413): a payload of the platform is a few kilobytes. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Arrays and objects nested deeper than this are refused (400): a payload nests a few levels. */
export const MAX_NESTING = 64;

export interface ReceiverCounts {
  accepted: number;
  rejected: number;
  unauthorized: number;
  loaded: number;
}

export interface WebhookDoorContext {
  /** REPORTER_WEBHOOK_KEY: when set, every request must carry ?key=<it>. */
  key: string | undefined;
  channels: readonly ChatApiChannel[];
  counts: ReceiverCounts;
  now: () => number;
  /** Appends to the receiver's spool; resolves once the record is on disk (receiver-spools.ts). */
  append: (record: SpoolRecord) => Promise<void>;
}

type Route = 'chatapi' | 'prompter';
/** An answer given before the body is read (`close`: the connection ends with it, the body unread). */
type Refusal = { status: number; body: unknown; close?: boolean };

export function answer(response: ServerResponse, status: number, body: unknown, close = false): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(close ? { connection: 'close' } : {}),
  });
  response.end(text);
}

/** The handler of every request but those that arrive while the receiver stops. */
export function createWebhookRequestHandler(
  context: WebhookDoorContext,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const keyDigest = context.key === undefined ? undefined : digest(context.key);
  const channelOf = new Map(context.channels.map((c) => [c.token, c.name]));
  // what a rejected body keeps has the channels' tokens and the receiver's own key redacted, in every form
  const knownTokens = [...context.channels.map((c) => c.token), ...(context.key ? [context.key] : [])];
  const { counts, now } = context;

  const reject = async (
    response: ServerResponse,
    status: 400 | 413,
    endpoint: string,
    raw: string,
    reason: string,
  ) => {
    counts.rejected++;
    await context.append({
      route: 'reject',
      receivedAt: now(),
      // a malformed Chat API body may still carry the channel token: it is kept without it, in any form
      body: redactTokens(raw, knownTokens, MAX_KEPT_BYTES),
      reason: redactRejectReason(reason, knownTokens),
      endpoint,
    });
    if (status === 413) answer(response, 413, { error: 'too_large', message: reason }, true);
    else answer(response, 400, { error: 'bad_request', message: reason });
  };

  const spoolPayload = async (route: Route, payload: unknown): Promise<void> => {
    if (route === 'prompter') return context.append({ route, receivedAt: now(), body: payload });
    // the token is a secret, never on disk: the spool keeps the channel it names instead
    const objects = payload as ChatApiPayload;
    await context.append({
      route,
      receivedAt: now(),
      body: objects.map(({ token: _token, ...object }) => object),
      channels: objects.map((o) => (o.token === undefined ? null : (channelOf.get(o.token) ?? null))),
    });
  };

  return async (request, response) => {
    const door = admit(request, keyDigest);
    if ('status' in door) {
      if (door.status === 401) counts.unauthorized++;
      return answer(response, door.status, door.body, door.close);
    }
    const { route } = door;
    const endpoint = `webhooks/${route}`;
    const body = withoutByteOrderMark(await readRequestBody(request, MAX_BODY_BYTES));
    if (body.tooLarge)
      return reject(response, 413, endpoint, body.text, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    if (nestsDeeperThan(body.text, MAX_NESTING))
      return reject(
        response,
        400,
        endpoint,
        body.text,
        `the body nests arrays and objects deeper than ${MAX_NESTING} levels`,
      );
    let parsed: unknown;
    try {
      // integers of 16 digits or more (the Prompter's intent ids are int64) arrive as their digits, never rounded
      parsed = wellFormed(parseJsonText(body.text, parseJsonBigIntegers));
    } catch (error) {
      return reject(response, 400, endpoint, body.text, `the body is not JSON: ${(error as Error).message}`);
    }
    const result = (route === 'chatapi' ? chatApiPayload : prompterPayload).safeParse(parsed);
    if (!result.success) {
      const kind = route === 'chatapi' ? 'Chat API' : 'Prompter';
      return reject(
        response,
        400,
        endpoint,
        body.text,
        `not a ${kind} payload: ${describeProblems(result.error)}`,
      );
    }
    await spoolPayload(route, result.data);
    counts.accepted++;
    answer(response, 200, {});
  };
}

/**
 * The body without a UTF-8 byte order mark at its start: some producers write one, and JSON readers skip it
 * (RFC 8259 lets a parser ignore it); JSON.parse would refuse the body for it.
 */
function withoutByteOrderMark(body: RequestBody): RequestBody {
  return body.text.charCodeAt(0) === 0xfeff ? { ...body, text: body.text.slice(1) } : body;
}

/** What is decided before the body: the route, the method, the key (a declared length: readRequestBody). */
function admit(request: IncomingMessage, keyDigest: Buffer | undefined): Refusal | { route: Route } {
  const url = new URL(request.url ?? '/', 'http://receiver');
  if (request.method === 'GET' && url.pathname === '/healthz') return { status: 200, body: { ok: true } };
  const route =
    url.pathname === '/webhooks/chatapi'
      ? 'chatapi'
      : url.pathname === '/webhooks/prompter'
        ? 'prompter'
        : undefined;
  // a body the answer does not wait for is never read: its connection closes after the answer
  const close = request.method !== 'GET' && request.method !== 'HEAD';
  if (!route)
    return {
      status: 404,
      body: { error: 'not_found', message: 'POST /webhooks/chatapi or /webhooks/prompter' },
      close,
    };
  if (request.method !== 'POST')
    return { status: 405, body: { error: 'method_not_allowed', message: 'POST only' }, close };
  if (keyDigest && !sameKey(keyDigest, url.searchParams.get('key')))
    return {
      status: 401,
      body: { error: 'unauthorized', message: 'a wrong or missing ?key= (REPORTER_WEBHOOK_KEY)' },
      close: true,
    };
  return { route };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares keys in constant time (their digests: equal lengths whatever was sent). */
function sameKey(expected: Buffer, given: string | null): boolean {
  return given !== null && timingSafeEqual(expected, digest(given));
}
