// The Chat API's channel token is a secret (docs/webhooks.md, Security): what the receiver keeps of a body it
// rejects (etl_rejects.raw_json and .error, and the spool line before them) has every token replaced, the rest
// byte for byte as sent. A body need not be JSON, or whole, to be redacted: the value of every `"token"` member
// is replaced up to its closing quote or the end of the text, then every configured channel token and every
// text of the platform's token form (`<8 alphanumerics>:<40 hex>`) wherever it stands, each character in any
// escaped form (`\u0074`, `%3A`, ...: secret-pattern.ts). A body that is JSON is also read: every text under
// a member named `token` (its name decoded) is a token too, redacted in every form.
import { redactSecrets } from '../../secrets/redact-secrets.js';
import { anyFormOf, anyFormOfCharacter, anyFormOfOneOf } from '../../secrets/secret-pattern.js';

export const REDACTED = '[redacted]';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX_DIGIT = '0123456789abcdefABCDEF';
const QUOTE = '\\\\{0,15}"';

/** A `"token": "...` member, its name in any form: its value up to the closing quote, or to the end of a body cut short. */
const TOKEN_MEMBER = new RegExp(
  `(${QUOTE}${anyFormOf('token')}${QUOTE}\\s*:\\s*${QUOTE})(?:[^"\\\\]|\\\\.)*`,
  'g',
);
/** The platform's token form in any escaped form, found anywhere (a token under another name, or in a text). */
const TOKEN_FORM = new RegExp(
  `${anyFormOfOneOf(ALPHANUMERIC)}{8}${anyFormOfCharacter(':')}${anyFormOfOneOf(HEX_DIGIT)}{40}`,
  'g',
);

/** Every text under a member named `token` (at any depth) of a body that is JSON; none for one that is not. */
function tokenMemberTexts(body: string): string[] {
  const found: string[] = [];
  const collect = (value: unknown, underToken: boolean): void => {
    if (typeof value === 'string') {
      if (underToken) found.push(value);
    } else if (Array.isArray(value)) {
      for (const item of value) collect(item, underToken);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) collect(item, underToken || key === 'token');
    }
  };
  try {
    collect(JSON.parse(body), false);
  } catch {
    // not JSON, or not whole: the expressions alone redact it
  }
  return found;
}

/** Past the characters kept, what is searched too: longer than any token in any form (200 characters, 13 each). */
const TAIL = 4096;

/**
 * `text` with every token redacted, cut to its first `keep` characters. Only those and a tail are searched
 * (a body of a megabyte costs as much as one of `keep`), and the tail is dropped: a token cut at its end
 * is not found, so it is not kept either.
 */
export function redactTokens(
  text: string,
  knownTokens: readonly string[],
  keep = Number.POSITIVE_INFINITY,
): string {
  const searched = text.length > keep + TAIL ? text.slice(0, keep + TAIL) : text;
  const secrets = [...knownTokens, ...tokenMemberTexts(text)];
  const redacted = redactSecrets(
    searched.replace(TOKEN_MEMBER, `$1${REDACTED}`).replace(TOKEN_FORM, REDACTED),
    secrets,
    REDACTED,
  );
  return redacted.slice(0, searched === text ? keep : Math.min(keep, redacted.length - TAIL));
}

/** V8's JSON.parse message quotes the text around the fault (`, "emuchat1:1a"... is not valid JSON`). */
const PARSE_ERROR_QUOTE = /, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s;

/** Why a body was rejected, kept with it: without the body's text V8 quotes, and every token redacted. */
export function redactRejectReason(reason: string, knownTokens: readonly string[]): string {
  return redactTokens(reason.replace(PARSE_ERROR_QUOTE, ''), knownTokens);
}
