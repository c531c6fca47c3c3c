// An interface's profile on the transport (http-transport.ts): how its secret travels (bearer, a header of its
// own, in the URL path, none), where its operations live, what its requests are called in messages, the setting
// its base URL came from, how its error bodies read, and the codes of its failures. Each client is one profile.
import type { ErrorCode } from '../error-codes.js';
import type { EtlError } from '../errors.js';
import type { ErrorShape } from './error-shapes.js';

export type QueryValue = string | number | boolean | readonly string[] | undefined;

/** A request on the transport; an interface may add fields its profile reads (the Reporter's `scope`). */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Operation path after the profile's prefix, e.g. `sessions/filter`; empty: the prefix itself. */
  op: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /**
   * A POST that only reads (…/filter, statistics, retrieval): an unreadable 2xx answer is asked again, like a
   * GET's. Any other non-GET request is a write: its 2xx answer is never followed by the same request again.
   */
  read?: boolean;
}

/** How the secret travels; in every case it is redacted from every message and log line of the transport. */
export type HttpAuth =
  /** `Authorization: Bearer <secret>`. */
  | { kind: 'bearer' }
  /** `<name>: <secret>` (an API key header). */
  | { kind: 'header'; name: string }
  /** In the URL's path: the profile's urlPrefix places it (URL-encoded). */
  | { kind: 'path' }
  /** No secret. */
  | { kind: 'none' };

export type HttpFailure =
  | 'notFound'
  | 'badRequest'
  | 'unavailable'
  | 'retryAfterTooLong'
  | 'requestFailed'
  | 'unreachable';

/**
 * The codes of the platform's interfaces (the Reporter API's, kept by the Chat API, the Prompter and Pushgate):
 * another 4xx, a 404, retries used up, a Retry-After longer than a request waits, a request that could not be
 * sent at all (a host that does not resolve), a first request that could not connect.
 */
export const PLATFORM_ERROR_CODES: Readonly<Record<HttpFailure, ErrorCode>> = {
  notFound: 'reporter.not_found',
  badRequest: 'reporter.bad_request',
  unavailable: 'reporter.unavailable',
  retryAfterTooLong: 'reporter.retry_after_too_long',
  requestFailed: 'reporter.request_failed',
  unreachable: 'reporter.unreachable',
};

export interface HttpProfile<R extends HttpRequest = HttpRequest> {
  /** `Reporter API`, `Chat API (channel main)`: in messages about its requests and its retries. */
  name: string;
  auth: HttpAuth;
  /** What messages call the secret: `token` or `key`. */
  secretName: 'token' | 'key';
  /** The setting the base URL came from (`REPORTER_BASE_URL`, `REPORTER_KB_BASE_URL`, ...), in messages. */
  baseUrlSetting: string;
  /** Everything before the operation's path, e.g. `https://host/chatapi/<token>`; may hold the secret. */
  urlPrefix: (req: R) => string;
  /** A request in messages; default `<method> <name> <op>`. */
  describe?: (req: R) => string;
  /** Adds what every request of the interface carries (the Reporter's projectShortName). */
  completeUrl?: (url: URL, req: R) => void;
  /** How an error answer's JSON body reads, the first shape that knows it wins. */
  errorShapes: readonly ErrorShape[];
  /** The error of a 401/403: it names the setting that holds the secret (never the secret). */
  authError: (status: number, detail: string, req: R) => EtlError;
  /**
   * Its own codes (default PLATFORM_ERROR_CODES); an interface naming its own `requestFailed` words such a
   * failure `<request> could not be sent: ...`.
   */
  codes?: Partial<Record<HttpFailure, ErrorCode>>;
}
