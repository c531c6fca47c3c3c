// A test double of an OpenAI-compatible embeddings endpoint (POST /embeddings/v1/embeddings): each text's
// vector is its words and their character 3-grams hashed into EMBEDDING_DIMS signed buckets, L2-normalised.
// Deterministic and model-free: NOT a language model, only a stand-in so that REPORTER_EMBEDDINGS_URL is
// exercised end to end (batches, order by index, keys, errors) without a network. An optional key
// (EmulatorOptions.embeddingsKey) must come as `Authorization: Bearer`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator } from './emulator.js';
import { sendJson } from './send-json.js';

export const EMBEDDINGS_PATH = '/embeddings/v1/embeddings';
export const EMBEDDING_DIMS = 256;
/** Texts one request may hold (OpenAI's limit). */
const MAX_INPUTS = 2048;

/** The double's vector of a text. */
export function doubleEmbedding(text: string): number[] {
  const v = new Array<number>(EMBEDDING_DIMS).fill(0);
  const add = (feature: string, weight: number) => {
    let h = 0x811c9dc5;
    for (let i = 0; i < feature.length; i++) h = Math.imul(h ^ feature.charCodeAt(i), 0x01000193);
    h >>>= 0;
    v[h % EMBEDDING_DIMS]! += (h & 0x80000000 ? -1 : 1) * weight;
  };
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    add(`w:${word}`, 1);
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.5);
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return norm === 0 ? v : v.map((x) => Number((x / norm).toFixed(6)));
}

function error(res: ServerResponse, status: number, message: string, type: string): void {
  sendJson(res, status, { error: { message, type } });
}

/** Serves one request of the double; counts it in `emulator.embeddingRequests`. */
export function serveEmbeddings(
  emulator: Emulator,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
) {
  emulator.embeddingRequests++;
  if (req.method !== 'POST') return error(res, 405, 'use POST', 'invalid_request_error');
  const key = emulator.options.embeddingsKey;
  if (key !== undefined && req.headers.authorization !== `Bearer ${key}`)
    return error(res, 401, 'Incorrect API key provided', 'invalid_request_error');
  const input = (body as { input?: unknown } | undefined)?.input;
  const texts = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(texts) || texts.length === 0 || !texts.every((t) => typeof t === 'string'))
    return error(
      res,
      400,
      "'input' must be a string or a non-empty array of strings",
      'invalid_request_error',
    );
  if (texts.length > MAX_INPUTS)
    return error(res, 400, `'input' holds more than ${MAX_INPUTS} texts`, 'invalid_request_error');
  const model = (body as { model?: unknown }).model;
  sendJson(res, 200, {
    object: 'list',
    model: typeof model === 'string' ? model : 'emulator-hashed-ngrams',
    // in reverse order on purpose: a client must place each vector by its index
    data: texts.map((t, index) => ({ object: 'embedding', index, embedding: doubleEmbedding(t) })).reverse(),
    usage: { prompt_tokens: 0, total_tokens: 0 },
  });
}
