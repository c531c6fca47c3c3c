// The Chat API's channel token is a secret (docs/webhooks.md, Security): what the receiver keeps of a body it
// rejects (etl_rejects.raw_json, and the spool line before it) has every token replaced, the rest byte for
// byte as sent. A body need not be JSON, or whole, to be redacted: the value of every `"token"` member is
// replaced up to its closing quote or the end of the text, then every configured channel token and every
// text of the platform's token form (`<8 alphanumerics>:<40 hex>`) wherever it stands.
export const REDACTED = '[redacted]';

/** A `"token": "...` member: its value up to the closing quote, or to the end of a body cut short. */
const TOKEN_MEMBER = /("token"\s*:\s*")(?:[^"\\]|\\.)*/g;
/** The platform's token form, found anywhere (a token under another name, or in a text). */
const TOKEN_FORM = /\b[A-Za-z0-9]{8}:[0-9a-fA-F]{40}\b/g;

export function redactTokens(text: string, knownTokens: readonly string[]): string {
  let redacted = text.replace(TOKEN_MEMBER, `$1${REDACTED}`).replace(TOKEN_FORM, REDACTED);
  for (const token of knownTokens) if (token !== '') redacted = redacted.split(token).join(REDACTED);
  return redacted;
}
