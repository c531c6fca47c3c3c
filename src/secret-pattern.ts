// Regular expressions for every form a text can take where a secret may be written: as it is, JSON-escaped
// at any depth (`\"`, `\\`, `\/`, `\uXXXX` with any number of backslashes, either case of hex), and
// URL-encoded (`%XX` per UTF-8 byte in either case, once or twice, `+` for a space), each character in any
// of its forms independently, so no mix of escapes a producer may choose hides it.

/** Hex digits matched in either case: `3a` -> `3[aA]`. */
function anyCaseHex(hex: string): string {
  return [...hex]
    .map((digit) => (/[a-f]/i.test(digit) ? `[${digit.toLowerCase()}${digit.toUpperCase()}]` : digit))
    .join('');
}

function escapeForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

const hex = (value: number, digits: number): string => anyCaseHex(value.toString(16).padStart(digits, '0'));

/** One character (a code point) as its JSON `\uXXXX` escape (a surrogate pair for those above U+FFFF). */
function unicodeEscapeOf(character: string): string {
  const units: string[] = [];
  for (let i = 0; i < character.length; i++) units.push(`\\\\+u${hex(character.charCodeAt(i), 4)}`);
  return units.join('');
}

/** One character as its URL encoding: `%XX` per UTF-8 byte, `%` itself possibly encoded again (`%25XX`). */
function percentEncodingOf(character: string): string {
  return [...Buffer.from(character, 'utf8')].map((byte) => `%(?:25)?${hex(byte, 2)}`).join('');
}

/** The written forms of one character: as it is (a quote or slash escaped or not, a backslash escaped any times). */
function literalFormOf(character: string): string {
  if (character === '\\') return '\\\\+';
  if (character === '"' || character === '/') return `\\\\*${escapeForRegExp(character)}`;
  if (character === ' ') return '(?: |\\+)';
  return escapeForRegExp(character);
}

/** A group matching one character (a code point) in any of its forms. */
export function anyFormOfCharacter(character: string): string {
  return `(?:${literalFormOf(character)}|${unicodeEscapeOf(character)}|${percentEncodingOf(character)})`;
}

/** A group matching any one of `characters` (each a code point), in any of its forms. */
export function anyFormOfOneOf(characters: string): string {
  const set = [...new Set(characters)];
  const literal = `[${set.map(escapeForRegExp).join('')}]`;
  const escaped = set.flatMap((c) => [unicodeEscapeOf(c), percentEncodingOf(c)]);
  return `(?:${literal}|${escaped.join('|')})`;
}

/** The source of a regular expression matching `text` with each of its characters in any form. */
export function anyFormOf(text: string): string {
  return [...text].map(anyFormOfCharacter).join('');
}
