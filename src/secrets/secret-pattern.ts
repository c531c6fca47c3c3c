// Regular expressions for every form a text can take where a secret may be written: as it is, JSON-escaped
// (`\"`, `\\`, `\/`, `\uXXXX` in either case of hex, nested up to four times), and URL-encoded (`%XX` per
// UTF-8 byte in either case, once or twice, `+` for a space), each character in any of its forms
// independently, so no mix of escapes a producer may choose hides it; and the base64 texts its bytes make
// inside a longer encoded text (find-encoded-secrets.ts searches them, and its hex). Runs of backslashes are
// matched with bounded counts: a text of many backslashes costs linear time, never quadratic (a hostile body).

/** A JSON escape's backslashes, nested up to four times (1, 2, 4, 8: the bound keeps the search linear). */
const BACKSLASHES = '\\\\{1,8}';
/** The backslashes before an escaped quote or slash (0, 1, 3, 7, 15). */
const QUOTE_BACKSLASHES = '\\\\{0,15}';
/** A backslash itself, as it is or escaped (1, 2, 4, 8, 16). */
const BACKSLASH = '\\\\{1,16}';

/** Hex digits matched in either case: `3a` -> `3[aA]`. */
function anyCaseHex(hex: string): string {
  return [...hex]
    .map((digit) => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit))
    .join('');
}

export function escapeForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const hex = (value: number, digits: number): string => anyCaseHex(value.toString(16).padStart(digits, '0'));

/** One character (a code point) as its JSON `\uXXXX` escape (a surrogate pair for those above U+FFFF). */
function unicodeEscapeOf(character: string): string {
  const units: string[] = [];
  for (let i = 0; i < character.length; i++) units.push(`${BACKSLASHES}u${hex(character.charCodeAt(i), 4)}`);
  return units.join('');
}

/** One character as its URL encoding: `%XX` per UTF-8 byte, `%` itself possibly encoded again (`%25XX`). */
function percentEncodingOf(character: string): string {
  return [...Buffer.from(character, 'utf8')].map((byte) => `%(?:25)?${hex(byte, 2)}`).join('');
}

/** The written forms of one character: as it is (a quote or slash escaped or not, a backslash escaped any times). */
function literalFormOf(character: string): string {
  if (character === '\\') return BACKSLASH;
  if (character === '"' || character === '/') return `${QUOTE_BACKSLASHES}${escapeForRegExp(character)}`;
  if (character === ' ') return '(?: |\\+)';
  return escapeForRegExp(character);
}

/** A group matching one character (a code point) in any of its forms. */
export function anyFormOfCharacter(character: string): string {
  return `(?:${literalFormOf(character)}|${unicodeEscapeOf(character)}|${percentEncodingOf(character)})`;
}

/**
 * A group matching any one of `characters` (ASCII, each written as it is), in any of its forms; the escapes'
 * prefixes are factored out, so a position that is no escape is left after one test.
 */
export function anyFormOfOneOf(characters: string): string {
  const set = [...new Set(characters)];
  const literal = `[${set.map(escapeForRegExp).join('')}]`;
  const unicode = `${BACKSLASHES}u00(?:${set.map((c) => hex(c.charCodeAt(0), 2)).join('|')})`;
  const percent = `%(?:25)?(?:${set.map((c) => hex(c.charCodeAt(0), 2)).join('|')})`;
  return `(?:${literal}|${unicode}|${percent})`;
}

/** The source of a regular expression matching `text` with each of its characters in any form. */
export function anyFormOf(text: string): string {
  return [...text].map(anyFormOfCharacter).join('');
}

/**
 * The base64 characters made of `text`'s bytes alone, whatever bytes stand before and after it in the encoded
 * text: its bytes start at offset 0, 1 or 2 of a 3-byte group, giving three encodings of its middle; the
 * characters that also hold bits of the bytes around it (one at each end at most) are left out.
 */
export function base64CoresOf(text: string): string[] {
  const bytes = Buffer.from(text, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil((8 * offset) / 6);
    const end = Math.floor((8 * (offset + bytes.length)) / 6);
    cores.push(encoded.slice(first, end));
  }
  return cores;
}

/** The base64 cores of `text` (base64CoresOf) in both alphabets, standard and url-safe, each once. */
export function base64FormsOf(text: string): string[] {
  const cores = base64CoresOf(text).flatMap((core) => [core, core.replace(/\+/g, '-').replace(/\//g, '_')]);
  return [...new Set(cores)];
}
