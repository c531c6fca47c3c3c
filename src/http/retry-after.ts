// Reads a 429/503's Retry-After in both of its forms (RFC 9110 §10.2.3): delta-seconds (`120`) or an
// HTTP-date (`Wed, 21 Oct 2026 07:28:00 GMT`), the date measured from the server's own `Date` header when
// it sent one (so a skewed local clock does not matter), else from the local clock.
// Invariant: the answer is a wait in ms, never negative (a date in the past means "now").

/** The most a request waits in all for the server's Retry-After answers before it gives up (exit 75). */
export const MAX_RETRY_WAIT_MS = 600_000;

type HeaderValue = string | string[] | undefined;

const first = (value: HeaderValue): string | undefined =>
  (Array.isArray(value) ? value[0] : value)?.trim() || undefined;

/** The wait Retry-After asks for, in ms (0 for a date already past); undefined when absent or unreadable. */
export function parseRetryAfter(
  retryAfter: HeaderValue,
  date: HeaderValue,
  localNow: number,
): number | undefined {
  const text = first(retryAfter);
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  // an HTTP-date has letters (a weekday, a month): a bare number with a sign or junk is no date
  if (!/[a-z]/i.test(text)) return undefined;
  const until = Date.parse(text);
  if (Number.isNaN(until)) return undefined;
  const serverNow = Date.parse(first(date) ?? '');
  const from = Number.isNaN(serverNow) ? localNow : serverNow;
  return Math.max(0, until - from);
}
