// The one place secrets are taken out of text (log lines, error messages, answers quoted in errors): every
// form of each secret (secret-pattern.ts: raw, JSON-escaped in any mix, URL-encoded) becomes a mask. A JSON
// line is redacted on its decoded strings and keys, then serialized again, so the line stays valid JSON and
// a line without a secret is left byte for byte. A secret shorter than SECRET_MIN_LENGTH is refused by the
// configuration (config.ts): masking so short a text everywhere would mangle the lines and hide nothing.
import { anyFormOf } from './secret-pattern.js';

/** The shortest secret the configuration accepts, and the shortest this module redacts. */
export const SECRET_MIN_LENGTH = 8;

export const MASK = '***';

/** One expression matching every form of every secret long enough, the longer first; undefined for none. */
export function secretsPattern(secrets: readonly string[]): RegExp | undefined {
  const redactable = [...new Set(secrets)].filter((s) => [...s].length >= SECRET_MIN_LENGTH);
  if (redactable.length === 0) return undefined;
  redactable.sort((a, b) => b.length - a.length);
  return new RegExp(redactable.map(anyFormOf).join('|'), 'g');
}

/** `text` with every form of each secret replaced by `mask`. */
export function redactSecrets(text: string, secrets: readonly string[], mask = MASK): string {
  const pattern = secretsPattern(secrets);
  return pattern === undefined ? text : text.replace(pattern, mask);
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
export function redactJsonLine(line: string, pattern: RegExp, mask = MASK): string {
  pattern.lastIndex = 0;
  if (!pattern.test(line)) return line;
  const redact = (text: string): string => text.replace(pattern, mask);
  let decoded: unknown;
  try {
    decoded = JSON.parse(line);
  } catch {
    return redact(line);
  }
  const newline = line.endsWith('\n') ? '\n' : '';
  return `${JSON.stringify(redactDecoded(decoded, redact))}${newline}`;
}
