// The secrets' bytes as a server may echo them, found in a text as spans of it: in hex (either case) and in
// base64 (standard or url-safe, padded or not, at any of the 3 byte alignments inside a longer encoded text:
// Basic auth's `user:password` holds the password at one of them). Searched in the text's decoded view (JSON
// `\uXXXX` escapes, `%XX` and `%25XX` decoded, the backslashes before `"` and `/` dropped), so an encoding
// inside a JSON-escaped or URL-encoded text is found too, each of its characters in any of those forms, with
// one expression of plain texts (expressions of every form of each character of such long encodings took V8
// up to a second to compile, and 100x longer to run). A base64 span takes up to two characters at each end
// (each may hold a few bits of the secret) and the padding after it.
import { base64FormsOf, escapeForRegExp } from './secret-pattern.js';

/** A part of a text, [start, end). */
export type Span = readonly [start: number, end: number];

/** The encodings of a set of secrets: one expression of their base64 texts, one of their hex (any case). */
export interface EncodedForms {
  readonly base64: RegExp;
  readonly hex: RegExp;
}

export function encodedFormsOf(secrets: readonly string[]): EncodedForms {
  const base64 = secrets.flatMap(base64FormsOf).map(escapeForRegExp);
  const hex = secrets.map((s) => Buffer.from(s, 'utf8').toString('hex'));
  return { base64: new RegExp(base64.join('|'), 'g'), hex: new RegExp(hex.join('|'), 'gi') };
}

/** A text with its escapes decoded, and for each of its characters the part of the text it came from. */
interface DecodedView {
  text: string;
  starts: number[];
  ends: number[];
}

const HEX4 = /^[0-9a-fA-F]{4}$/;
const HEX2 = /^[0-9a-fA-F]{2}$/;
/** What stands for a character no encoding is made of (a byte of a multi-byte character, a backslash). */
const NOT_ENCODED = '\u0000';

/** The escape at `i` (a run of backslashes, or a `%`): the character it stands for and where it ends. */
function escapeAt(text: string, i: number): { character: string; end: number } | undefined {
  if (text[i] === '%') {
    const twice = text.startsWith('25', i + 1) && HEX2.test(text.slice(i + 3, i + 5));
    const at = twice ? i + 3 : i + 1;
    if (!HEX2.test(text.slice(at, at + 2))) return undefined;
    const byte = Number.parseInt(text.slice(at, at + 2), 16);
    return { character: byte < 0x80 ? String.fromCharCode(byte) : NOT_ENCODED, end: at + 2 };
  }
  let j = i;
  while (text[j] === '\\') j++;
  if (text[j] === 'u' && HEX4.test(text.slice(j + 1, j + 5)))
    return { character: String.fromCharCode(Number.parseInt(text.slice(j + 1, j + 5), 16)), end: j + 5 };
  if (text[j] === '"' || text[j] === '/') return { character: text[j]!, end: j + 1 };
  return { character: NOT_ENCODED, end: j };
}

function decodedViewOf(text: string): DecodedView {
  const characters: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < text.length; ) {
    const escaped = text[i] === '%' || text[i] === '\\' ? escapeAt(text, i) : undefined;
    const end = escaped?.end ?? i + 1;
    characters.push(escaped?.character ?? text[i]!);
    starts.push(i);
    ends.push(end);
    i = end;
  }
  return { text: characters.join(''), starts, ends };
}

/** A base64 character as it is (the neighbours a base64 span takes). */
const BASE64_CHARACTER = /[A-Za-z0-9+/_-]/;

/** A base64 span widened over up to two encoded characters at each end, and the padding after it. */
function widen(text: string, [start, end]: Span): Span {
  let from = start;
  let to = end;
  for (let n = 0; n < 2 && from > 0 && BASE64_CHARACTER.test(text[from - 1]!); n++) from--;
  for (let n = 0; n < 2 && to < text.length && BASE64_CHARACTER.test(text[to]!); n++) to++;
  while (to < text.length && text[to] === '=') to++;
  return [from, to];
}

function spansOf(pattern: RegExp, view: DecodedView): Span[] {
  const spans: Span[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(view.text); match !== null; match = pattern.exec(view.text)) {
    spans.push([view.starts[match.index]!, view.ends[match.index + match[0].length - 1]!]);
    pattern.lastIndex = match.index + 1; // overlapping encodings (the alignments) each found
  }
  return spans;
}

/** Every hex or base64 encoding of the secrets in `text`, as spans of it (a base64 one widened). */
export function findEncodedSpans(text: string, forms: EncodedForms): Span[] {
  const view =
    text.includes('%') || text.includes('\\')
      ? decodedViewOf(text)
      : {
          text,
          starts: Array.from({ length: text.length }, (_, i) => i),
          ends: Array.from({ length: text.length }, (_, i) => i + 1),
        };
  return [...spansOf(forms.hex, view), ...spansOf(forms.base64, view).map((span) => widen(text, span))];
}
