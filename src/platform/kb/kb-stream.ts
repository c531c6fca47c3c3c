// Streamed generation (POST {REPORTER_KB_BASE_URL}/api/knowledge-hub/query/stream): reads the Server-Sent
// Events as they arrive, `start`, `chunk` ({text}), then `done` (the final QueryRecord) or `error`
// ({code, description}). The transport's rules before the stream starts: 429 and 5xx (and a refused
// connection) are tried again with backoff or the server's Retry-After; 401/403 is kb.auth naming the setting.
// Once the stream has started nothing is resent here: a stream that ends (or breaks) without `done` or `error`
// comes back `cut`, and the caller decides (kb eval tries once more). Invariant: the key is never in a message.
import { Agent, request, errors as undiciErrors } from 'undici';
import type { KbConfig } from '../../config.js';
import { EtlError } from '../../errors.js';
import { MAX_RETRY_WAIT_MS, parseRetryAfter } from '../../http/retry-after.js';
import { type Logger, silentLogger } from '../../log.js';
import { redactSecrets } from '../../secrets/redact-secrets.js';
import { parseJsonBigIntegers } from '../../text/parse-json-big-integers.js';
import { KB_API_PATH, type KbQueryRequest } from './kb-client.js';
import { describeKbIssues, type KbQueryRecord, kbQueryRecordSchema } from './kb-schemas.js';
import { type SseEvent, SseParser } from './parse-sse.js';

export interface KbStreamResult {
  /** The `done` event's QueryRecord; undefined when the stream ended another way. */
  done?: KbQueryRecord;
  /** The `error` event's body (or why a `done` did not fit the contract: code kb.bad_answer). */
  error?: { code: string; description: string };
  /** The stream ended, or broke, before `done` or `error`: `reason` says how. */
  cut?: { reason: string };
  /** The `chunk` texts joined, as far as they came. */
  text: string;
  /** Events received (start, chunks, done or error). */
  events: number;
  /** From sending the request to the first `chunk` (ms); undefined when none came. */
  firstChunkMs?: number;
}

export interface KbStreamer {
  stream(request: KbQueryRequest): Promise<KbStreamResult>;
  /** HTTP requests sent, retries included. */
  readonly requests: number;
  close(): Promise<void>;
}

export interface KbStreamerOptions {
  config: KbConfig;
  concurrency?: number;
  /** How long a stream may stay silent (ms, default 120 000: a generation may take over a minute). */
  timeoutMs?: number;
  /** Attempts after the first for a request refused before its stream started (429, 5xx, network; default 6). */
  retries?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  log?: Logger;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

/** A failure before the stream started that another attempt may fix. */
class RetryableStart extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

function errorBodyDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { code?: unknown; description?: unknown };
    if (typeof body.code === 'string' || typeof body.description === 'string')
      return `: ${body.code ?? ''} ${body.description ?? ''}`.replace(/\s+/g, ' ').trimEnd();
  } catch {
    // not JSON: no detail
  }
  return '';
}

type StreamResponse = Awaited<ReturnType<typeof request>>;

/** Where a stream request goes: the URL, the key, the connection pool, the redaction of the key. */
interface StreamTarget {
  url: string;
  key: string;
  agent: Agent;
  baseUrl: string;
  redact: (text: string) => string;
}

/** Sends the request once: the response when the stream starts (2xx), else RetryableStart or an EtlError. */
async function requestStream(target: StreamTarget, body: string): Promise<StreamResponse> {
  let response: StreamResponse;
  try {
    response = await request(target.url, {
      method: 'POST',
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${target.key}`,
      },
      body,
      dispatcher: target.agent,
    });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (error instanceof undiciErrors.UndiciError || code !== undefined)
      throw new RetryableStart(`connection failed (${code ?? (error as Error).name})`);
    throw error;
  }
  const status = response.statusCode;
  if (status >= 200 && status < 300) return response;
  const text = await response.body.text().catch(() => '');
  const detail = target.redact(errorBodyDetail(text));
  if (RETRYABLE_STATUS.has(status))
    throw new RetryableStart(
      `answered ${status}${detail}`,
      parseRetryAfter(response.headers['retry-after'], response.headers['date'], Date.now()),
    );
  if (status === 401 || status === 403)
    throw new EtlError(
      'kb.auth',
      `the knowledge base service refused REPORTER_KB_KEY (the project key) with ${status}${detail} on POST query/stream: the key may be wrong, expired or revoked; check REPORTER_KB_KEY and REPORTER_KB_BASE_URL (${target.baseUrl})`,
    );
  throw new EtlError(
    status === 404 ? 'kb.not_found' : 'kb.bad_request',
    `POST knowledge base query/stream answered ${status}${detail}`,
  );
}

/** Adds one event to the result: a chunk's text, the `done` record (checked against the contract) or the `error`. */
function recordStreamEvent(result: KbStreamResult, event: SseEvent, elapsedMs: () => number): void {
  result.events++;
  if (event.event === 'chunk') {
    result.firstChunkMs ??= elapsedMs();
    try {
      const text = (JSON.parse(event.data) as { text?: unknown }).text;
      if (typeof text === 'string') result.text += text;
    } catch {
      result.text += event.data;
    }
  } else if (event.event === 'done') {
    let parsed: ReturnType<typeof kbQueryRecordSchema.safeParse>;
    try {
      parsed = kbQueryRecordSchema.safeParse(parseJsonBigIntegers(event.data));
    } catch {
      parsed = kbQueryRecordSchema.safeParse(undefined);
    }
    if (parsed.success) result.done = parsed.data;
    else
      result.error = {
        code: 'kb.bad_answer',
        description: `the done event does not fit a QueryRecord: ${describeKbIssues(parsed.error)}`,
      };
  } else if (event.event === 'error') {
    let body: { code?: unknown; description?: unknown } = {};
    try {
      body = JSON.parse(event.data) as typeof body;
    } catch {
      body = { description: event.data };
    }
    result.error = {
      code: typeof body.code === 'string' ? body.code : 'error',
      description: typeof body.description === 'string' ? body.description : event.data,
    };
  }
}

/**
 * Reads the events until `done` or `error`, then releases the connection; a stream that ends or breaks before
 * either comes back `cut`, saying how. `elapsedMs` is the time since the request was sent.
 */
async function readStream(response: StreamResponse, elapsedMs: () => number): Promise<KbStreamResult> {
  const parser = new SseParser();
  const result: KbStreamResult = { text: '', events: 0 };
  const decoder = new TextDecoder();
  try {
    for await (const piece of response.body) {
      for (const event of parser.push(decoder.decode(piece as Buffer, { stream: true }))) {
        recordStreamEvent(result, event, elapsedMs);
        if (result.done || result.error) break;
      }
      if (result.done || result.error) break;
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    result.cut = {
      reason: `the stream broke (${code ?? (error as Error).name}) after ${result.events} events`,
    };
    return result;
  } finally {
    // an early break (done or error before the end) leaves the body unread: release the connection
    response.body.destroy();
  }
  if (!result.done && !result.error)
    result.cut = {
      reason: `the stream ended after ${result.events} events without a done or error event`,
    };
  return result;
}

export function createKbStreamer(options: KbStreamerOptions): KbStreamer {
  const { config } = options;
  const key = config.key;
  if (key === undefined)
    throw new EtlError(
      'kb.not_configured',
      'REPORTER_KB_KEY is not set: the knowledge base project key (with REPORTER_KB_BASE_URL, default https://khub.just-ai.com)',
      { kind: 'usage' },
    );
  const timeoutMs = options.timeoutMs ?? 120_000;
  const agent = new Agent({
    connections: options.concurrency ?? 4,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: Math.min(timeoutMs, 10_000) },
  });
  const retries = options.retries ?? 6;
  const baseMs = options.backoffBaseMs ?? 500;
  const capMs = options.backoffCapMs ?? 30_000;
  const log = options.log ?? silentLogger();
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const now = options.now ?? Date.now;
  const url = `${config.baseUrl.replace(/\/+$/, '')}${KB_API_PATH}/query/stream`;
  const redact = (text: string) => redactSecrets(text, [key]);
  const target: StreamTarget = { url, key, agent, baseUrl: config.baseUrl, redact };
  let requests = 0;

  /** Sends the request until the stream starts (200), or throws. */
  async function open(body: string): Promise<StreamResponse> {
    let waitedForServer = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        requests++;
        return await requestStream(target, body);
      } catch (error) {
        if (!(error instanceof RetryableStart)) throw error;
        if (attempt >= retries)
          throw new EtlError(
            'kb.unavailable',
            `POST knowledge base query/stream failed after ${attempt + 1} attempts: ${error.message}`,
            { kind: 'transient' },
          );
        const backoff = Math.min(capMs, baseMs * 2 ** attempt) * (0.5 + Math.random() / 2);
        const wait = error.retryAfterMs ?? backoff;
        if (error.retryAfterMs !== undefined) {
          waitedForServer += error.retryAfterMs;
          if (waitedForServer > MAX_RETRY_WAIT_MS)
            throw new EtlError(
              'kb.retry_after_too_long',
              `POST knowledge base query/stream ${error.message}: the server asks to wait longer (Retry-After) than the ${MAX_RETRY_WAIT_MS / 1000} s a request waits; try again later`,
              { kind: 'transient' },
            );
        }
        log.warn(
          { op: 'query/stream', attempt: attempt + 1, waitMs: Math.round(wait), reason: error.message },
          'retrying knowledge base request',
        );
        await sleep(wait);
      }
    }
  }

  return {
    get requests() {
      return requests;
    },
    async stream(queryRequest) {
      const started = now();
      const response = await open(JSON.stringify(queryRequest));
      return readStream(response, () => now() - started);
    },
    close: () => agent.close(),
  };
}
