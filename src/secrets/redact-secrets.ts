// The one place secrets are taken out of text (log lines, error messages, answers quoted in errors): every
// form of each secret (secret-pattern.ts: raw, JSON-escaped in any mix, URL-encoded; its bytes in hex or in
// base64 at any alignment, Basic auth's included) becomes a mask; a base64 one takes the encoded characters
// next to it too (each may hold a few of the secret's bits). A JSON line is redacted on its decoded strings
// and keys, then serialized again, so the line stays valid JSON and a line without a secret is left byte for
// byte. A secret shorter than SECRET_MIN_LENGTH is refused by the configuration (config.ts): masking so
// short a text everywhere would mangle the lines and hide nothing.
import { type EncodedForms, encodedFormsOf, findEncodedSpans, type Span } from './find-encoded-secrets.js';
import { anyFormOf, base64FormsOf, escapeForRegExp } from './secret-pattern.js';

/** The shortest secret the configuration accepts, and the shortest this module redacts. */
export const SECRET_MIN_LENGTH = 8;

export const MASK = '***';

/**
 * What finds the secrets: one expression of every form of their texts (the longer first), their hex and
 * base64 encodings (find-encoded-secrets.ts), and the plain texts a line without escapes must hold for any
 * of them to be there (`mayHoldSecret`'s quick answer).
 */
export interface SecretsMatcher {
  /** Every form of each secret's text (secret-pattern.ts). */
  readonly pattern: RegExp;
  readonly encoded: EncodedForms;
  /** Any of the secrets' texts and base64 texts, backslashes removed and `+` read as a space (quickForm). */
  readonly literals: RegExp;
  /** The hex of any secret's bytes, in either case. */
  readonly hexes: RegExp;
}

/** The matcher of `secrets` (those long enough, the longer first); undefined for none. */
export function secretsMatcher(secrets: readonly string[]): SecretsMatcher | undefined {
  const redactable = [...new Set(secrets)].filter((s) => [...s].length >= SECRET_MIN_LENGTH);
  if (redactable.length === 0) return undefined;
  redactable.sort((a, b) => b.length - a.length);
  const literals = redactable.flatMap((s) => [s, ...base64FormsOf(s)]).map(quickForm);
  return {
    pattern: new RegExp(redactable.map(anyFormOf).join('|'), 'g'),
    encoded: encodedFormsOf(redactable),
    literals: new RegExp(literals.map(escapeForRegExp).join('|')),
    hexes: new RegExp(redactable.map((s) => Buffer.from(s, 'utf8').toString('hex')).join('|'), 'i'),
  };
}

/** A text as the quick check compares it: without backslashes, `+` as a space (URL-encoding's). */
function quickForm(text: string): string {
  const plain = text.includes('\\') ? text.replaceAll('\\', '') : text;
  return plain.includes('+') ? plain.replaceAll('+', ' ') : plain;
}

/** A `\u` escape (after any run of backslashes) or a `%`: a text the quick check cannot judge. */
const ESCAPE = /\\u|%/;

/**
 * Whether `text` may hold a secret in some form. A text without `\u` or `%` can hold one only as its plain
 * characters (a quote or slash perhaps escaped, a space perhaps `+`, hex digits in either case): its quick
 * form must then hold one of the plain texts (one expression of plain texts, which V8 searches far faster
 * than the expression of every form); another text is searched for every form.
 */
export function mayHoldSecret(text: string, matcher: SecretsMatcher): boolean {
  if (ESCAPE.test(text)) {
    matcher.pattern.lastIndex = 0;
    return matcher.pattern.test(text) || findEncodedSpans(text, matcher.encoded).length > 0;
  }
  const quick = quickForm(text);
  return matcher.literals.test(quick) || matcher.hexes.test(quick);
}

/** Every span of `text` holding a secret in some form, in order, overlapping ones merged. */
function secretSpans(text: string, matcher: SecretsMatcher): Span[] {
  const spans: Span[] = [...findEncodedSpans(text, matcher.encoded)];
  const { pattern } = matcher;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    spans.push([match.index, match.index + match[0].length]);
    if (match[0].length === 0) pattern.lastIndex++;
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [start, end] of spans) {
    const last = merged.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** `text` with every form of each of the matcher's secrets replaced by `mask`. */
export function replaceSecrets(text: string, matcher: SecretsMatcher, mask = MASK): string {
  if (!mayHoldSecret(text, matcher)) return text;
  const spans = secretSpans(text, matcher);
  if (spans.length === 0) return text;
  let out = '';
  let last = 0;
  for (const [start, end] of spans) {
    out += `${text.slice(last, start)}${mask}`;
    last = end;
  }
  return `${out}${text.slice(last)}`;
}

/** The matchers of the last secret lists asked for (a transport redacts each error with the same list). */
const recentMatchers = new Map<string, SecretsMatcher | undefined>();
const RECENT_MATCHERS = 16;

function cachedMatcher(secrets: readonly string[]): SecretsMatcher | undefined {
  const key = secrets.join('\u0000');
  if (recentMatchers.has(key)) return recentMatchers.get(key);
  const matcher = secretsMatcher(secrets);
  if (recentMatchers.size >= RECENT_MATCHERS) recentMatchers.delete(recentMatchers.keys().next().value!);
  recentMatchers.set(key, matcher);
  return matcher;
}

/** `text` with every form of each secret replaced by `mask`. */
export function redactSecrets(text: string, secrets: readonly string[], mask = MASK): string {
  const matcher = cachedMatcher(secrets);
  return matcher === undefined ? text : replaceSecrets(text, matcher, mask);
}

/** A value decoded from JSON with every string and key redacted. */
function redactDecoded(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDecoded(item, redact));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redact(key), redactDecoded(item, redact)]),
  );
}

/**
 * One JSON line (a newline kept) with every form of the secrets replaced: when the pattern is found, on the
 * decoded strings and keys (an escape such as `\u0074` is then plain text), serialized again; a line that is
 * not JSON is redacted as text.
 */
export function redactJsonLine(line: string, matcher: SecretsMatcher, mask = MASK): string {
  if (!mayHoldSecret(line, matcher)) return line;
  const redact = (text: string): string => replaceSecrets(text, matcher, mask);
  let decoded: unknown;
  try {
    decoded = JSON.parse(line);
  } catch {
    return redact(line);
  }
  const newline = line.endsWith('\n') ? '\n' : '';
  return `${JSON.stringify(redactDecoded(decoded, redact))}${newline}`;
}
