// The Reporter API transport: builds URLs for both generations (v1 bearer, legacy token in the path),
// bounds concurrency over keep-alive connections, rate-limits, times out, and retries 429/5xx/network
// faults and unreadable bodies of reads with exponential backoff and jitter (a write answered 2xx is done,
// whatever its body: never sent again). A Retry-After (seconds or HTTP-date)
// or a 429 pauses every request of the client until then (the rate limiter's "not before" time), and a 429
// lowers the client's rate, which recovers gradually (the limiter's AIMD; no fixed rate by default).
// The first request of a run that cannot connect (nothing listening, unknown host, https to plain HTTP) is
// tried at most twice, within seconds, and fails naming the setting of the address; once the server has answered
// anything, the full policy applies. Invariant: the token never appears in an error, a log line or anything
// returned.
import { Agent, request, errors as undiciErrors } from 'undici';
import {
  type ConnectFailure,
  connectFailureOf,
  describeConnectFailure,
} from '../describe-connect-failure.js';
import type { ErrorCode } from '../error-codes.js';
import { EtlError } from '../errors.js';
import { type HttpAnswer, isWrite, parseBody } from '../http/answer-body.js';
import { RateLimiter, Semaphore } from '../http/rate-limiter.js';
import { MAX_RETRY_WAIT_MS, parseRetryAfter } from '../http/retry-after.js';
import { type Logger, silentLogger } from '../log.js';
import { plural } from '../plural.js';
import { redactSecrets } from '../redact-secrets.js';

export type Generation = 'v1' | 'legacy';
export type QueryValue = string | number | boolean | readonly string[] | undefined;

export interface ReporterHttpOptions {
  baseUrl: string;
  token: string;
  api: Generation;
  /** projectShortName for v1 (a unified token can span projects). */
  project?: string | undefined;
  concurrency?: number;
  /** A hard cap in requests per minute (REPORTER_RATE_LIMIT_RPM); none: only the rate 429s set. */
  rateLimitPerMinute?: number | undefined;
  timeoutMs?: number;
  retries?: number;
  log?: Logger;
  /** Backoff base and cap in ms (tests make them small). */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /**
   * How an answer's text becomes its value (JSON.parse by default; the knowledge base's client keeps int64 ids
   * beyond 2^53 exact with src/parse-json-big-integers.ts). It throws on a body that is not JSON.
   */
  parseJson?: (text: string) => unknown;
  /**
   * Another interface of the platform on this transport (the Chat API): its URL prefix, with the token in
   * its path (redacted like a legacy token), its name in messages, and the error a 401/403 becomes.
   */
  sibling?: SiblingInterface;
  /**
   * The setting the base URL came from, in messages about it (`REPORTER_BASE_URL`, `REPORTER_KB_BASE_URL`,
   * `REPORTER_CONFIG projects[0].baseUrl`, ...; default REPORTER_BASE_URL).
   */
  baseUrlSetting?: string;
}

export interface SiblingInterface {
  /** Everything before the operation's path, e.g. `https://host/chatapi/<token>`. */
  urlPrefix: string;
  /** `Chat API`: in every message about its requests. */
  name: string;
  /** The error of a 401/403: it names the setting that holds the token (never the token). */
  authError: (status: number, detail: string) => EtlError;
  /** The token goes in `Authorization: Bearer` instead of the URL (the knowledge base service). */
  bearer?: boolean;
  /**
   * The codes of its other failures (default: the Reporter API's `reporter.*`): another 4xx, a 404, retries
   * used up, a Retry-After longer than a request waits, a request that could not be sent at all (a host
   * that does not resolve), a first request that could not connect.
   */
  codes?: Partial<
    Record<
      'notFound' | 'badRequest' | 'unavailable' | 'retryAfterTooLong' | 'requestFailed' | 'unreachable',
      ErrorCode
    >
  >;
}

export interface ReporterRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Operation path after the prefix, e.g. `sessions/filter`. */
  op: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** `async` for /api/v1/async/... operations (v1 only). */
  scope?: 'reporter' | 'async';
  /** Send projectShortName on v1 (default true when a project is configured). */
  withProject?: boolean;
  /**
   * A POST that only reads (…/filter, statistics, retrieval): an unreadable 2xx answer is asked again, like a
   * GET's. Any other non-GET request is a write: its 2xx answer is never followed by the same request again.
   */
  read?: boolean;
}

/**
 * Tries of a request that cannot connect before the server has answered anything (the address may be wrong):
 * two when a second may differ (a server restarting, DNS not answering), one when it cannot (a name DNS says
 * does not exist, https to plain HTTP, a refused certificate).
 */
function firstContactTries(failure: ConnectFailure): number {
  return failure.kind === 'refused' || failure.code === 'EAI_AGAIN' ? 2 : 1;
}
/** The longest wait between those tries: both fit in a few seconds. */
const FIRST_CONTACT_MAX_WAIT_MS = 1000;

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
/** C0 controls, DEL and C1: never in a token, and no header (nor URL path) can carry them raw. */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_ABORTED',
]);

/** A failure worth another try, with the server's Retry-After when it gave one. */
class Retryable extends Error {
  constructor(
    message: string,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown; status?: number; firstContact?: ConnectFailure },
  ) {
    super(message, options);
    this.status = options?.status;
    this.firstContact = options?.firstContact;
  }

  /** The connection failure of a request sent before the server answered anything on this transport. */
  readonly firstContact: ConnectFailure | undefined;

  /** The HTTP status that asked for the retry (none for network faults and unreadable bodies). */
  readonly status: number | undefined;
}

function errorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Base URLs already warned about (once per process: a run may build several clients). */
const warnedPlainHttp = new Set<string>();

/** Loopback: 127.0.0.0/8, ::1 and localhost (a token sent there in clear text stays on this machine). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** Warns (once per base URL) when the token would cross the network unencrypted. */
function warnIfPlainHttp(
  baseUrl: string,
  api: Generation,
  log: Logger,
  setting: string,
  sibling?: SiblingInterface,
): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return;
  }
  if (url.protocol !== 'http:' || isLoopbackHost(url.hostname) || warnedPlainHttp.has(baseUrl)) return;
  warnedPlainHttp.add(baseUrl);
  log.warn(
    { baseUrl: url.origin },
    `${setting} is http:// to ${url.hostname}, not a loopback address: the ${sibling?.bearer ? 'key' : 'token'} is sent in clear text (${api === 'v1' || sibling?.bearer ? 'its Authorization header' : 'in the path of every URL'}); use https://`,
  );
}

export class ReporterHttp {
  readonly api: Generation;
  readonly baseUrl: string;
  /** projectShortName sent on v1; settable once the sync has resolved it. */
  project: string | undefined;
  /** HTTP requests sent, retries included. */
  requests = 0;
  retried = 0;
  /** The setting the base URL came from, for messages. */
  readonly baseUrlSetting: string;
  /** Any HTTP answer received (of any status): from then on a connection failure is retried in full. */
  private answered = false;
  private readonly token: string;
  private readonly agent: Agent;
  private readonly limiter: RateLimiter;
  private readonly semaphore: Semaphore;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly log: Logger;
  private readonly backoffBaseMs: number;
  private readonly backoffCapMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly parseJson: (text: string) => unknown;
  private readonly sibling: SiblingInterface | undefined;

  constructor(options: ReporterHttpOptions) {
    this.sibling = options.sibling;
    this.baseUrlSetting = options.baseUrlSetting ?? 'REPORTER_BASE_URL';
    this.api = options.api;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.project = options.project;
    this.token = options.token;
    const concurrency = options.concurrency ?? 4;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.agent = new Agent({
      connections: concurrency,
      keepAliveTimeout: 10_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: Math.min(this.timeoutMs, 10_000) },
    });
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.limiter = new RateLimiter({ maxPerMinute: options.rateLimitPerMinute, sleep: this.sleep });
    this.semaphore = new Semaphore(concurrency);
    this.retries = options.retries ?? 6;
    this.log = options.log ?? silentLogger();
    warnIfPlainHttp(this.baseUrl, this.api, this.log, this.baseUrlSetting, this.sibling);
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffCapMs = options.backoffCapMs ?? 30_000;
    this.random = options.random ?? Math.random;
    this.parseJson = options.parseJson ?? JSON.parse;
  }

  /** Where the generation's operations live; for legacy it contains the token: never log it. */
  private prefix(scope: 'reporter' | 'async'): string {
    if (this.sibling) return this.sibling.urlPrefix;
    if (scope === 'async') {
      if (this.api !== 'v1')
        throw new EtlError(
          'reporter.unsupported',
          'asynchronous operations exist only in the v1 API (REPORTER_API=v1)',
        );
      return `${this.baseUrl}/api/v1/async`;
    }
    return this.api === 'v1'
      ? `${this.baseUrl}/api/v1/reporter`
      : `${this.baseUrl}/api/reporter/p/${encodeURIComponent(this.token)}`;
  }

  buildUrl(req: ReporterRequest): string {
    const url = new URL(
      req.op ? `${this.prefix(req.scope ?? 'reporter')}/${req.op}` : this.prefix('reporter'),
    );
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, v);
      else url.searchParams.set(key, String(value));
    }
    if (
      this.api === 'v1' &&
      !this.sibling &&
      this.project !== undefined &&
      req.withProject !== false &&
      !url.searchParams.has('projectShortName')
    ) {
      url.searchParams.set('projectShortName', this.project);
    }
    return url.toString();
  }

  private headers(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (hasBody) headers['content-type'] = 'application/json';
    if ((this.api === 'v1' && !this.sibling) || this.sibling?.bearer)
      headers['authorization'] = `Bearer ${this.token}`;
    return headers;
  }

  /** Removes the token, in any form (legacy URLs carry it in the path, URL-encoded), from any text. */
  redact(text: string): string {
    return redactSecrets(text, [this.token]);
  }

  private describe(req: ReporterRequest): string {
    if (this.sibling) return `${req.method} ${this.sibling.name} ${req.op || '/'}`;
    return `${req.method} ${req.scope === 'async' ? 'async/' : ''}${req.op} (${this.api} API)`;
  }

  /**
   * Sends a request and parses its JSON answer (undefined for an empty body). A write whose 2xx answer cannot
   * be read gives undefined too (logged; see `write` for the note): it was done, and is not sent again.
   */
  async json<T = unknown>(req: ReporterRequest): Promise<T> {
    return (await this.send(req)).value as T;
  }

  /** Sends a request and returns its status, headers and raw JSON (for operations answering with headers only). */
  async raw(req: ReporterRequest): Promise<HttpAnswer> {
    return this.send(req);
  }

  /**
   * Sends a write (a request that changes something) and returns its answer; `unreadable` says why a 2xx
   * answer could not be read (cut short, not JSON): the write was done and is not sent again, so the caller
   * records it as done with that note.
   */
  async write<T = unknown>(req: ReporterRequest): Promise<HttpAnswer<T>> {
    return (await this.send(req)) as HttpAnswer<T>;
  }

  /** Reads an answer: a 2xx one parsed (a write's, even cut short, is done), any other classified. */
  private async receive(
    req: ReporterRequest,
    response: Awaited<ReturnType<typeof request>>,
  ): Promise<HttpAnswer> {
    this.answered = true;
    const status = response.statusCode;
    const done = status >= 200 && status < 300;
    let text: string;
    try {
      text = await response.body.text();
    } catch (error) {
      if (!(done && isWrite(req))) throw this.classifyNetworkError(req, error);
      // a write's 2xx answer cut short: the server did it all the same
      this.limiter.recordSuccess();
      const why = errorCode(error) ?? (error as Error).name;
      return this.noteUnreadable(req, status, response.headers, `its answer was cut short (${why})`);
    }
    if (!done) throw this.classifyStatus(req, status, response.headers, text);
    this.limiter.recordSuccess();
    return this.settle(req, status, response.headers, text);
  }

  /** A 2xx answer: parsed; a read's unreadable body is asked again, a write's is done and noted. */
  private settle(
    req: ReporterRequest,
    status: number,
    headers: HttpAnswer['headers'],
    text: string,
  ): HttpAnswer {
    const parsed = parseBody(text, headers, this.parseJson);
    if (parsed.ok) return { status, headers, value: parsed.value };
    if (isWrite(req)) return this.noteUnreadable(req, status, headers, `its answer was ${parsed.problem}`);
    throw new Retryable(`${this.describe(req)} answered ${status} with ${parsed.problem}`);
  }

  /** A write answered 2xx whose body could not be read: done, logged, never sent again. */
  private noteUnreadable(
    req: ReporterRequest,
    status: number,
    headers: HttpAnswer['headers'],
    problem: string,
  ): HttpAnswer {
    const unreadable = `${this.describe(req)} was done (${status}) but ${problem}; it was not sent again`;
    this.log.warn({ op: this.redact(req.op), status }, this.redact(unreadable));
    return { status, headers, value: undefined, unreadable: this.redact(unreadable) };
  }

  private async send(req: ReporterRequest): Promise<HttpAnswer> {
    const url = this.buildUrl(req);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    // undici refuses a header value with a control character, and each refused request keeps one of the
    // agent's connections busy for good (the next ones would wait forever): refuse it here, before sending
    if (CONTROL_CHARACTER.test(this.token))
      throw new EtlError(
        this.sibling?.codes?.requestFailed ?? 'reporter.request_failed',
        `${this.describe(req)} could not be sent: the ${this.sibling?.bearer ? 'key' : 'token'} holds a control character (a line break, ...) that no request can carry; set it again without it`,
      );
    let lastError: unknown;
    /** What this request has waited for the server's Retry-After so far (at most MAX_RETRY_WAIT_MS). */
    let retryAfterWaited = 0;
    /** The limiter's number of the current attempt (a 429 lowers the rate only for one sent at the rate it drew). */
    let sent = 0;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      try {
        return await this.semaphore.run(async () => {
          sent = await this.limiter.acquire();
          this.requests++;
          let response: Awaited<ReturnType<typeof request>>;
          try {
            response = await request(url, {
              method: req.method,
              headers: this.headers(body !== undefined),
              ...(body === undefined ? {} : { body }),
              dispatcher: this.agent,
              headersTimeout: this.timeoutMs,
              bodyTimeout: this.timeoutMs,
              signal: AbortSignal.timeout(this.timeoutMs * 2),
            });
          } catch (error) {
            throw this.classifyNetworkError(req, error);
          }
          return this.receive(req, response);
        });
      } catch (error) {
        if (!(error instanceof Retryable)) throw error;
        if (
          error.firstContact &&
          attempt + 1 >= Math.min(firstContactTries(error.firstContact), this.retries + 1)
        )
          throw this.unreachable(req, error.firstContact, attempt + 1);
        lastError = error;
        if (attempt === this.retries) break;
        const backoff =
          Math.min(
            error.firstContact ? FIRST_CONTACT_MAX_WAIT_MS : this.backoffCapMs,
            this.backoffBaseMs * 2 ** attempt,
          ) *
          (0.5 + this.random() / 2);
        const retryAfter = error.retryAfterMs;
        if (retryAfter !== undefined && retryAfterWaited + retryAfter > MAX_RETRY_WAIT_MS) {
          const left = Math.max(0, MAX_RETRY_WAIT_MS - retryAfterWaited);
          throw new EtlError(
            this.sibling?.codes?.retryAfterTooLong ?? 'reporter.retry_after_too_long',
            `${this.redact(error.message)}: the server asks to wait ${Math.ceil(retryAfter / 1000)} s (Retry-After), more than the ${Math.floor(left / 1000)} s left of the ${MAX_RETRY_WAIT_MS / 1000} s a request waits for it; try again later`,
            { kind: 'transient' },
          );
        }
        // The server said when (Retry-After), or a 429 says the client is too fast: every request of this
        // client waits (the limiter's shared "not before"), not only this one. Other faults back off alone.
        const wait = retryAfter ?? backoff;
        if (retryAfter !== undefined) retryAfterWaited += retryAfter;
        const shared = retryAfter !== undefined || error.status === 429;
        if (error.status === 429) this.limiter.backOff(sent);
        if (shared) this.limiter.pause(wait);
        this.retried++;
        this.log.warn(
          {
            op: req.op,
            attempt: attempt + 1,
            waitMs: Math.round(wait),
            ...(shared ? { allRequests: true } : {}),
            ...(error.status === 429 && this.limiter.allowedPerSecond !== undefined
              ? { allowedPerSecond: Number(this.limiter.allowedPerSecond.toPrecision(3)) }
              : {}),
            reason: this.redact(error.message),
          },
          `retrying ${this.sibling ? this.sibling.name : 'Reporter API'} request`,
        );
        if (!shared) await this.sleep(wait);
      }
    }
    const reason = lastError instanceof Error ? this.redact(lastError.message) : 'unknown error';
    throw new EtlError(
      this.sibling?.codes?.unavailable ?? 'reporter.unavailable',
      `${this.describe(req)} failed after ${plural(this.retries + 1, 'attempt')}: ${reason}`,
      { kind: 'transient' },
    );
  }

  /** The first request of this transport could not connect, twice: the address (or the server) is wrong. */
  private unreachable(req: ReporterRequest, failure: ConnectFailure, tries: number): EtlError {
    return new EtlError(
      this.sibling?.codes?.unreachable ?? 'reporter.unreachable',
      `${describeConnectFailure(failure, this.baseUrlSetting, this.baseUrl)} (${failure.code}; ${this.describe(req)}, ${plural(tries, 'try', 'tries')})`,
      { kind: 'transient' },
    );
  }

  private classifyNetworkError(req: ReporterRequest, error: unknown): Error {
    const failure = connectFailureOf(error);
    if (failure && !this.answered)
      return new Retryable(`${this.describe(req)}: connection failed (${failure.code})`, undefined, {
        firstContact: failure,
      });
    const code = errorCode(error);
    // undici refused the request itself (a header value it cannot send): the same request fails the same way
    // every time, and each refused one keeps one of the agent's connections busy, so it is not retried
    const refused = code === 'UND_ERR_INVALID_ARG';
    if (
      (error instanceof undiciErrors.UndiciError && !refused) ||
      (code !== undefined && RETRYABLE_CODES.has(code)) ||
      (error as Error)?.name === 'TimeoutError' ||
      (error as Error)?.name === 'AbortError'
    ) {
      return new Retryable(`${this.describe(req)}: connection failed (${code ?? (error as Error).name})`);
    }
    // a host that does not resolve, a TLS failure: worded with the setting that holds the address (never
    // OpenSSL's own text)
    const message = failure
      ? `${describeConnectFailure(failure, this.baseUrlSetting, this.baseUrl)} (${failure.code})`
      : this.redact(error instanceof Error ? error.message : String(error));
    if (this.sibling?.codes?.requestFailed)
      return new EtlError(
        this.sibling.codes.requestFailed,
        `${this.describe(req)} could not be sent: ${message}`,
      );
    return new EtlError('reporter.request_failed', `${this.describe(req)}: ${message}`);
  }

  private classifyStatus(
    req: ReporterRequest,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    text: string,
  ): Error {
    let detail = '';
    try {
      const dto = JSON.parse(text) as {
        error?: unknown;
        message?: unknown;
        code?: unknown;
        description?: unknown;
      };
      if (typeof dto.message === 'string')
        detail = `: ${dto.error ?? ''} ${dto.message}`.replace(/\s+/g, ' ');
      // the knowledge base service's shape: {code, description}
      else if (typeof dto.description === 'string' || typeof dto.code === 'string')
        detail = `: ${dto.code ?? ''} ${dto.description ?? ''}`.replace(/\s+/g, ' ').trimEnd();
    } catch {
      detail = text.trim().startsWith('<') ? ' (an HTML page)' : '';
    }
    detail = this.redact(detail);
    if (RETRYABLE_STATUS.has(status)) {
      const retryAfterMs = parseRetryAfter(headers['retry-after'], headers['date'], Date.now());
      return new Retryable(`${this.describe(req)} answered ${status}${detail}`, retryAfterMs, { status });
    }
    if ((status === 401 || status === 403) && this.sibling) return this.sibling.authError(status, detail);
    if (status === 401 || status === 403) {
      const how =
        this.api === 'v1'
          ? 'sent as "Authorization: Bearer" to /api/v1/reporter'
          : 'sent in the path of /api/reporter/p/<token>';
      return new EtlError(
        'reporter.auth',
        `the Reporter API refused REPORTER_TOKEN with ${status}${detail} on ${this.describe(req)}; the token is ${how} (REPORTER_API=${this.api}): check the token, that it belongs to this API generation${this.project ? ` and that it may read project ${this.project}` : ''}`,
      );
    }
    return new EtlError(
      status === 404
        ? (this.sibling?.codes?.notFound ?? 'reporter.not_found')
        : (this.sibling?.codes?.badRequest ?? 'reporter.bad_request'),
      `${this.describe(req)} answered ${status}${detail}`,
    );
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
