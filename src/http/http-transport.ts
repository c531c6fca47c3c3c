// The HTTP transport of every interface: concurrency over keep-alive connections (adapted to the server between
// a floor and maxConcurrency: adaptive-concurrency.ts), rate limit, timeouts, and retries of 429/5xx/network
// faults and of reads' unreadable bodies (backoff with jitter; a write answered 2xx is never sent again). A 429
// waits its Retry-After alone; 429s that repeat, or a Retry-After on another status, pause every request of
// the client (rate-limiter.ts); a first request that cannot connect fails fast naming the setting of the address. What differs per interface is its
// profile (http-profile.ts). Invariant: the secret never appears in an error, a log line or anything returned.
import { Agent, request, errors as undiciErrors } from 'undici';
import type { ErrorCode } from '../error-codes.js';
import { EtlError } from '../errors.js';
import { type Logger, silentLogger } from '../log.js';
import { redactSecrets } from '../secrets/redact-secrets.js';
import { plural } from '../text/plural.js';
import { AdaptiveConcurrency } from './adaptive-concurrency.js';
import { type HttpAnswer, isWrite, parseBody } from './answer-body.js';
import { type ConnectFailure, connectFailureOf, describeConnectFailure } from './describe-connect-failure.js';
import { readErrorDetail } from './error-shapes.js';
import {
  type HttpFailure,
  type HttpProfile,
  type HttpRequest,
  PLATFORM_ERROR_CODES,
} from './http-profile.js';
import { RateLimiter } from './rate-limiter.js';
import { MAX_RETRY_WAIT_MS, parseRetryAfter } from './retry-after.js';

export interface HttpTransportOptions<R extends HttpRequest = HttpRequest> {
  baseUrl: string;
  /** The interface's secret (a token, a key, a pushback id); none for `auth: none`. */
  secret?: string | undefined;
  profile: HttpProfile<R>;
  /** Requests in flight at the start (default 4). */
  concurrency?: number;
  /**
   * The most requests in flight the client may grow to while the server's round trip stays flat and no 429
   * comes back (REPORTER_MAX_CONCURRENCY); default `concurrency`: a fixed number in flight.
   */
  maxConcurrency?: number | undefined;
  /** A hard cap in requests per minute (REPORTER_RATE_LIMIT_RPM); none: only the rate 429s set. */
  rateLimitPerMinute?: number | undefined;
  /**
   * The rate limiter of another transport to the same server, shared: the server limits them together, so
   * what its 429s taught one paces both (the sync's statuses reports beside its reads).
   */
  rateLimiter?: RateLimiter;
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
   * beyond 2^53 exact with src/text/parse-json-big-integers.ts). It throws on a body that is not JSON.
   */
  parseJson?: (text: string) => unknown;
  /**
   * The caller's stop (Ctrl-C, SIGTERM): once it fires, the requests in flight are cancelled, none is sent and
   * none retried (nor warned about), and each fails with `http.stopped`.
   */
  stop?: AbortSignal | undefined;
  /**
   * `bytes`: a 2xx answer's value is its body as it came (a Buffer, never decoded: a report file that may be a
   * zip or text in any encoding); other answers are read as text, as always. Default `json`.
   */
  bodyAs?: 'json' | 'bytes';
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

/** Where the secret travels, in the warning about plain HTTP. */
function whereSecretTravels(profile: HttpProfile<never>): string {
  const { auth } = profile;
  if (auth.kind === 'bearer') return 'its Authorization header';
  if (auth.kind === 'header') return `its ${auth.name} header`;
  return 'in the path of every URL';
}

/** Warns (once per base URL) when the secret would cross the network unencrypted. */
function warnIfPlainHttp(baseUrl: string, log: Logger, profile: HttpProfile<never>): void {
  if (profile.auth.kind === 'none') return;
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
    `${profile.baseUrlSetting} is http:// to ${url.hostname}, not a loopback address: the ${profile.secretName} is sent in clear text (${whereSecretTravels(profile)}); use https://`,
  );
}

export class HttpTransport<R extends HttpRequest = HttpRequest> {
  readonly baseUrl: string;
  /** HTTP requests sent, retries included. */
  requests = 0;
  retried = 0;
  /** Answers that were 429 (Too Many Requests). */
  throttled = 0;
  /** The setting the base URL came from, for messages. */
  readonly baseUrlSetting: string;
  /** Any HTTP answer received (of any status): from then on a connection failure is retried in full. */
  private answered = false;
  private readonly secrets: readonly string[];
  /** The secret holds a control character: no request can carry it (checked once, refused on each send). */
  private readonly secretUnsendable: boolean;
  /** The auth header, [name, value], when the secret travels in one. */
  private readonly authHeader: readonly [string, string] | undefined;
  private readonly profile: HttpProfile<R>;
  private readonly codes: Readonly<Record<HttpFailure, ErrorCode>>;
  private readonly agent: Agent;
  /** The pace of the requests (shared with transports given it as `rateLimiter`). */
  readonly limiter: RateLimiter;
  private readonly inFlight: AdaptiveConcurrency;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly log: Logger;
  private readonly backoffBaseMs: number;
  private readonly backoffCapMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly parseJson: (text: string) => unknown;
  private readonly stop: AbortSignal | undefined;
  /** Settles when `stop` fires: one listener for the transport, however many requests wait on it. */
  private readonly stopped: Promise<void> | undefined;
  /** That listener, removed by close(): a stop signal outlives its transports (the scheduler's, every run). */
  private readonly onStop: (() => void) | undefined;
  private readonly bytes: boolean;
  /** The last Date header an answer carried, and when (performance.now(): this machine's wall clock is not trusted). */
  private serverDate: { at: number; receivedAt: number } | undefined;

  constructor(options: HttpTransportOptions<R>) {
    const { profile } = options;
    const stop = options.stop;
    this.stop = stop;
    let onStop: (() => void) | undefined;
    this.stopped =
      stop === undefined
        ? undefined
        : new Promise<void>((resolve) => {
            onStop = resolve;
            if (stop.aborted) resolve();
            else stop.addEventListener('abort', onStop, { once: true });
          });
    this.onStop = onStop;
    this.profile = profile;
    this.codes = { ...PLATFORM_ERROR_CODES, ...profile.codes };
    this.baseUrlSetting = profile.baseUrlSetting;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    const secret = options.secret ?? '';
    this.secrets = secret === '' ? [] : [secret];
    this.secretUnsendable = CONTROL_CHARACTER.test(secret);
    this.authHeader =
      profile.auth.kind === 'bearer'
        ? ['authorization', `Bearer ${secret}`]
        : profile.auth.kind === 'header'
          ? [profile.auth.name, secret]
          : undefined;
    const concurrency = options.concurrency ?? 4;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.log = options.log ?? silentLogger();
    this.inFlight = new AdaptiveConcurrency({
      initial: concurrency,
      max: Math.max(concurrency, options.maxConcurrency ?? concurrency),
      onChange: ({ limit, why }) =>
        this.log.debug({ interface: profile.name, inFlight: limit, why }, 'requests in flight changed'),
    });
    this.agent = new Agent({
      connections: this.inFlight.ceiling,
      keepAliveTimeout: 10_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: Math.min(this.timeoutMs, 10_000) },
    });
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.limiter =
      options.rateLimiter ?? new RateLimiter({ maxPerMinute: options.rateLimitPerMinute, sleep: this.sleep });
    this.retries = options.retries ?? 6;
    warnIfPlainHttp(this.baseUrl, this.log, profile);
    this.backoffBaseMs = options.backoffBaseMs ?? 500;
    this.backoffCapMs = options.backoffCapMs ?? 30_000;
    this.random = options.random ?? Math.random;
    this.parseJson = options.parseJson ?? JSON.parse;
    this.bytes = options.bodyAs === 'bytes';
  }

  /** Requests allowed in flight now, and the most it reached (REPORTER_CONCURRENCY up to maxConcurrency). */
  get concurrency(): { now: number; reached: number } {
    return { now: this.inFlight.limit, reached: this.inFlight.highest };
  }

  buildUrl(req: R): string {
    const prefix = this.profile.urlPrefix(req);
    const url = new URL(req.op ? `${prefix}/${req.op}` : prefix);
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, v);
      else url.searchParams.set(key, String(value));
    }
    this.profile.completeUrl?.(url, req);
    return url.toString();
  }

  private headers(hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (hasBody) headers['content-type'] = 'application/json';
    if (this.authHeader) headers[this.authHeader[0]] = this.authHeader[1];
    return headers;
  }

  /** Removes the secret, in any form (a URL carries it in the path, URL-encoded), from any text. */
  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  /** A request in messages: the profile's words, or `<method> <name> <op>`. */
  private describe(req: R): string {
    if (this.profile.describe) return this.profile.describe(req);
    return `${req.method} ${this.profile.name} ${req.op || '/'}`;
  }

  /**
   * Sends a request and parses its JSON answer (undefined for an empty body). A write whose 2xx answer cannot
   * be read gives undefined too (logged; see `write` for the note): it was done, and is not sent again.
   */
  async json<T = unknown>(req: R): Promise<T> {
    return (await this.send(req)).value as T;
  }

  /** Sends a request and returns its status, headers and raw JSON (for operations answering with headers only). */
  async raw(req: R): Promise<HttpAnswer> {
    return this.send(req);
  }

  /**
   * Sends a write (a request that changes something) and returns its answer; `unreadable` says why a 2xx
   * answer could not be read (cut short, not JSON): the write was done and is not sent again, so the caller
   * records it as done with that note.
   */
  async write<T = unknown>(req: R): Promise<HttpAnswer<T>> {
    return (await this.send(req)) as HttpAnswer<T>;
  }

  /** Reads an answer: a 2xx one parsed (a write's, even cut short, is done), any other classified. */
  private async receive(req: R, response: Awaited<ReturnType<typeof request>>): Promise<HttpAnswer> {
    this.answered = true;
    const status = response.statusCode;
    const done = status >= 200 && status < 300;
    let text: string;
    let bytes: Buffer | undefined;
    try {
      if (this.bytes) {
        bytes = Buffer.from(await response.body.arrayBuffer());
        text = done ? '' : bytes.toString('utf8');
      } else text = await response.body.text();
    } catch (error) {
      if (!(done && isWrite(req))) throw this.classifyNetworkError(req, error);
      // a write's 2xx answer cut short: the server did it all the same
      this.limiter.recordSuccess();
      const why = errorCode(error) ?? (error as Error).name;
      return this.noteUnreadable(req, status, response.headers, `its answer was cut short (${why})`);
    }
    if (!done) throw this.classifyStatus(req, status, response.headers, text);
    this.limiter.recordSuccess();
    if (bytes !== undefined) return { status, headers: response.headers, value: bytes };
    return this.settle(req, status, response.headers, text);
  }

  /** A 2xx answer: parsed; a read's unreadable body is asked again, a write's is done and noted. */
  private settle(req: R, status: number, headers: HttpAnswer['headers'], text: string): HttpAnswer {
    const parsed = parseBody(text, headers, this.parseJson);
    if (parsed.ok) return { status, headers, value: parsed.value };
    if (isWrite(req)) return this.noteUnreadable(req, status, headers, `its answer was ${parsed.problem}`);
    throw new Retryable(`${this.describe(req)} answered ${status} with ${parsed.problem}`);
  }

  /** A write answered 2xx whose body could not be read: done, logged, never sent again. */
  private noteUnreadable(
    req: R,
    status: number,
    headers: HttpAnswer['headers'],
    problem: string,
  ): HttpAnswer {
    const unreadable = `${this.describe(req)} was done (${status}) but ${problem}; it was not sent again`;
    this.log.warn({ op: this.redact(req.op), status }, this.redact(unreadable));
    return { status, headers, value: undefined, unreadable: this.redact(unreadable) };
  }

  private async send(req: R): Promise<HttpAnswer> {
    const url = this.buildUrl(req);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    // undici refuses a header value with a control character, and each refused request keeps one of the
    // agent's connections busy for good (the next ones would wait forever): refuse it here, before sending
    if (this.secretUnsendable)
      throw new EtlError(
        this.codes.requestFailed,
        `${this.describe(req)} could not be sent: the ${this.profile.secretName} holds a control character (a line break, ...) that no request can carry; set it again without it`,
      );
    let lastError: unknown;
    /** What this request has waited for the server's Retry-After so far (at most MAX_RETRY_WAIT_MS). */
    const waited = { retryAfterMs: 0 };
    /** The limiters' numbers of the current attempt (a 429 lowers them only for one sent at the rate it drew). */
    const numbers = { sent: 0, started: 0 };
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      this.throwIfStopped(req);
      try {
        return await this.inFlight.run(async (started) => {
          numbers.started = started;
          numbers.sent = await this.limiter.acquire();
          this.throwIfStopped(req);
          return this.attempt(req, url, body);
        });
      } catch (error) {
        // cancelled by the caller's stop: not a failure of the server, so neither retried nor warned about
        this.throwIfStopped(req);
        if (!(error instanceof Retryable)) throw error;
        if (
          error.firstContact &&
          attempt + 1 >= Math.min(firstContactTries(error.firstContact), this.retries + 1)
        )
          throw this.unreachable(req, error.firstContact, attempt + 1);
        lastError = error;
        if (attempt === this.retries) break;
        await this.waitToRetry(req, error, attempt, waited, numbers);
      }
    }
    const reason = lastError instanceof Error ? this.redact(lastError.message) : 'unknown error';
    throw new EtlError(
      this.codes.unavailable,
      `${this.describe(req)} failed after ${plural(this.retries + 1, 'attempt')}: ${reason}`,
      { kind: 'transient' },
    );
  }

  /** `http.stopped` once the caller's stop has fired. */
  private throwIfStopped(req: R): void {
    if (this.stop?.aborted)
      throw new EtlError('http.stopped', `${this.describe(req)} cancelled: the command was asked to stop`, {
        kind: 'transient',
      });
  }

  /** Waits `ms`, or less when the caller's stop fires meanwhile. */
  private async sleepUnlessStopped(ms: number): Promise<void> {
    if (this.stopped === undefined) return this.sleep(ms);
    await Promise.race([this.sleep(ms), this.stopped]);
  }

  /** One try of a request, in its slot: sent, its round trip (to the answer's headers) told to the in-flight limit. */
  private async attempt(req: R, url: string, body: string | undefined): Promise<HttpAnswer> {
    this.requests++;
    const sentAt = performance.now();
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(url, {
        method: req.method,
        headers: this.headers(body !== undefined),
        ...(body === undefined ? {} : { body }),
        dispatcher: this.agent,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal:
          this.stop === undefined
            ? AbortSignal.timeout(this.timeoutMs * 2)
            : AbortSignal.any([AbortSignal.timeout(this.timeoutMs * 2), this.stop]),
      });
    } catch (error) {
      throw this.classifyNetworkError(req, error);
    }
    if (response.statusCode < 400) this.inFlight.recordLatency(performance.now() - sentAt);
    this.noteServerDate(response.headers['date']);
    return this.receive(req, response);
  }

  private noteServerDate(header: string | string[] | undefined): void {
    const at = Date.parse(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
    if (Number.isFinite(at)) this.serverDate = { at, receivedAt: performance.now() };
  }

  /**
   * The server's time now, from the Date header of its last answer and the monotonic time since (never this
   * machine's wall clock, which may have jumped); undefined before an answer with one. The header counts whole
   * seconds: up to a second early.
   */
  serverTime(): number | undefined {
    const date = this.serverDate;
    return date === undefined ? undefined : date.at + (performance.now() - date.receivedAt);
  }

  /**
   * Before another try of a failed request: the wait (the server's Retry-After, else backoff with jitter), the
   * limits told (a 429 or a Retry-After lowers the requests in flight; repeated 429s the rate), and the wait
   * shared by every request of the client when the server asks it of the client (repeated 429s, a Retry-After
   * on another status), else waited by this request alone. A Retry-After beyond what a request waits in all fails.
   */
  private async waitToRetry(
    req: R,
    error: Retryable,
    attempt: number,
    waited: { retryAfterMs: number },
    numbers: { sent: number; started: number },
  ): Promise<void> {
    const backoff =
      Math.min(
        error.firstContact ? FIRST_CONTACT_MAX_WAIT_MS : this.backoffCapMs,
        this.backoffBaseMs * 2 ** attempt,
      ) *
      (0.5 + this.random() / 2);
    const retryAfter = error.retryAfterMs;
    if (retryAfter !== undefined && waited.retryAfterMs + retryAfter > MAX_RETRY_WAIT_MS) {
      const left = Math.max(0, MAX_RETRY_WAIT_MS - waited.retryAfterMs);
      throw new EtlError(
        this.codes.retryAfterTooLong,
        `${this.redact(error.message)}: the server asks to wait ${Math.ceil(retryAfter / 1000)} s (Retry-After), more than the ${Math.floor(left / 1000)} s left of the ${MAX_RETRY_WAIT_MS / 1000} s a request waits for it; try again later`,
        { kind: 'transient' },
      );
    }
    const wait = retryAfter ?? backoff;
    if (retryAfter !== undefined) waited.retryAfterMs += retryAfter;
    const tooMany = error.status === 429;
    if (tooMany) this.throttled++;
    const repeated = tooMany && this.limiter.backOff(numbers.sent);
    if (tooMany || retryAfter !== undefined) this.inFlight.recordThrottle(numbers.started);
    const shared = repeated || (retryAfter !== undefined && !tooMany);
    if (shared) this.limiter.pause(wait);
    this.retried++;
    this.log.warn(
      {
        op: req.op,
        attempt: attempt + 1,
        waitMs: Math.round(wait),
        ...(shared ? { allRequests: true } : {}),
        ...(tooMany ? { inFlight: this.inFlight.limit } : {}),
        ...(tooMany && this.limiter.allowedPerSecond !== undefined
          ? { allowedPerSecond: Number(this.limiter.allowedPerSecond.toPrecision(3)) }
          : {}),
        reason: this.redact(error.message),
      },
      `retrying ${this.profile.name} request`,
    );
    if (!shared) await this.sleepUnlessStopped(wait);
  }

  /** The first request of this transport could not connect, twice: the address (or the server) is wrong. */
  private unreachable(req: R, failure: ConnectFailure, tries: number): EtlError {
    return new EtlError(
      this.codes.unreachable,
      `${describeConnectFailure(failure, this.baseUrlSetting, this.baseUrl)} (${failure.code}; ${this.describe(req)}, ${plural(tries, 'try', 'tries')})`,
      { kind: 'transient' },
    );
  }

  private classifyNetworkError(req: R, error: unknown): Error {
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
    if (this.profile.codes?.requestFailed)
      return new EtlError(this.codes.requestFailed, `${this.describe(req)} could not be sent: ${message}`);
    return new EtlError(this.codes.requestFailed, `${this.describe(req)}: ${message}`);
  }

  private classifyStatus(
    req: R,
    status: number,
    headers: Record<string, string | string[] | undefined>,
    text: string,
  ): Error {
    const detail = this.redact(readErrorDetail(text, this.profile.errorShapes));
    if (RETRYABLE_STATUS.has(status)) {
      const retryAfterMs = parseRetryAfter(headers['retry-after'], headers['date'], Date.now());
      return new Retryable(`${this.describe(req)} answered ${status}${detail}`, retryAfterMs, { status });
    }
    if (status === 401 || status === 403) return this.profile.authError(status, detail, req);
    return new EtlError(
      status === 404 ? this.codes.notFound : this.codes.badRequest,
      `${this.describe(req)} answered ${status}${detail}`,
    );
  }

  async close(): Promise<void> {
    if (this.onStop !== undefined) this.stop?.removeEventListener('abort', this.onStop);
    await this.agent.close();
  }
}
