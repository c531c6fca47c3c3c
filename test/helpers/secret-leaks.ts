// What a hostile server echoes of a secret, and whether a text shows it: the six encodings (as it is,
// JSON-escaped, URL-encoded, base64, base64url, hex), base64 at the three byte alignments inside a longer
// text, padded or not, Basic auth's `user:password`, and mixes (base64 URL-encoded or JSON-escaped). The
// check decodes the text itself (JSON escapes, percent-encoding, every base64 run at every offset), knowing
// nothing of src/secrets: a text leaks a secret when some decoding of it holds the secret's bytes but its
// first and last.

/** Every form a server may echo `secret` in, by name. */
export function echoedForms(secret: string, user = 'default'): Record<string, string> {
  const b64 = (text: string) => Buffer.from(text).toString('base64');
  const b64url = (text: string) => Buffer.from(text).toString('base64url');
  const forms: Record<string, string> = {
    raw: secret,
    'json-escaped': JSON.stringify(JSON.stringify(secret)).slice(1, -1),
    'unicode-escaped': [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    'url-encoded': encodeURIComponent(secret),
    hex: Buffer.from(secret).toString('hex'),
    'hex upper': Buffer.from(secret).toString('hex').toUpperCase(),
    'basic auth': `Basic ${b64(`${user}:${secret}`)}`,
  };
  for (const prefix of ['', 'a', 'ab']) {
    const text = `${prefix}${secret}!?`;
    forms[`base64 at ${prefix.length}`] = b64(text);
    forms[`base64 at ${prefix.length} unpadded`] = b64(text).replace(/=+$/, '');
    forms[`base64url at ${prefix.length}`] = b64url(text);
    forms[`base64 at ${prefix.length} url-encoded`] = encodeURIComponent(b64(`>>${text}`));
    forms[`base64 at ${prefix.length} json-escaped`] = b64(`~?${text}`).replaceAll('/', '\\/');
  }
  forms['bearer in base64'] = b64(`Authorization: Bearer ${secret}`);
  return forms;
}

/** The texts a reader could decode `text` into: as it is, JSON-unescaped, percent-decoded, both. */
function decodingsOf(text: string): string[] {
  const unescapeJson = (t: string) =>
    t
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
      .replace(/\\+(["/\\])/g, '$1');
  const percent = (t: string) =>
    t.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  return [text, unescapeJson(text), percent(text), percent(unescapeJson(text)), unescapeJson(percent(text))];
}

/** The names of the ways `text` shows `secret` (empty: it shows it in none). */
export function leaksOf(text: string, secret: string): string[] {
  const bytes = Buffer.from(secret);
  const inner = bytes.subarray(1, -1);
  const found = new Set<string>();
  for (const view of decodingsOf(text)) {
    if (view.includes(secret)) found.add('as it is');
    if (view.toLowerCase().includes(inner.toString('hex'))) found.add('hex');
    for (const run of view.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
      const standard = run.replace(/-/g, '+').replace(/_/g, '/');
      for (let offset = 0; offset < 4; offset++) {
        // Node decodes base64 without its padding, and a cut last group as far as it goes
        const decoded = Buffer.from(standard.slice(offset), 'base64');
        if (decoded.includes(inner)) found.add('base64');
      }
    }
  }
  return [...found];
}
