// The embeddings endpoint the clusters of unhandled questions may use instead of their own LSA
// (REPORTER_EMBEDDINGS_URL, docs/unhandled.md#embeddings): an OpenAI-compatible `/v1/embeddings` URL, with
// an optional key as its credentials (`https://:KEY@host/v1/embeddings`), sent as `Authorization: Bearer`.
// The key is a secret: the URL is shown and requested without it, and a key shorter than SECRET_MIN_LENGTH
// is refused (the log could not hide it).
import { z } from 'zod';
import { SECRET_MIN_LENGTH } from '../secrets/redact-secrets.js';

export interface EmbeddingsEndpoint {
  /** The endpoint without credentials, e.g. `http://127.0.0.1:8080/v1/embeddings`. */
  url: string;
  /** The URL's password (or user name when it has no password), sent as the bearer key. */
  key: string | undefined;
}

const EXPECTED =
  'expected an http or https URL of an OpenAI-compatible embeddings endpoint like http://127.0.0.1:8080/v1/embeddings';

export const embeddingsUrlSetting = z
  .string()
  .trim()
  .transform((text, ctx): EmbeddingsEndpoint => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      // never the value: it may hold the key
      ctx.addIssue({ code: 'custom', message: EXPECTED });
      return z.NEVER;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
      ctx.addIssue({
        code: 'custom',
        message: `${EXPECTED} (no query string: a key goes in as https://:KEY@host/...)`,
      });
      return z.NEVER;
    }
    const key = decodeURIComponent(url.password || url.username) || undefined;
    if (key !== undefined && key.length < SECRET_MIN_LENGTH) {
      ctx.addIssue({
        code: 'custom',
        message: `the key in the URL is too short: a secret is at least ${SECRET_MIN_LENGTH} characters, shorter ones cannot be kept out of the logs`,
      });
      return z.NEVER;
    }
    url.username = '';
    url.password = '';
    return { url: url.toString().replace(/\/+$/, ''), key };
  });
