// The client of an OpenAI-compatible embeddings endpoint (REPORTER_EMBEDDINGS_URL, docs/unhandled.md#embeddings):
// POST {input: [texts], model?} → {data: [{index, embedding: number[]}]}, texts sent in batches of BATCH, the
// vectors returned in the texts' order. A profile of src/http/ (retries, 429 with Retry-After, timeouts); the
// key in the URL travels as `Authorization: Bearer` and is never in a message. Only masked texts are sent.
import { z } from 'zod';
import type { EmbeddingsConfig } from '../../config.js';
import { EtlError } from '../../errors.js';
import { PLATFORM_ERROR_SHAPES } from '../../http/error-shapes.js';
import type { HttpProfile } from '../../http/http-profile.js';
import { HttpTransport } from '../../http/http-transport.js';
import type { Logger } from '../../log.js';

/** Texts per request: well under the limits of the usual servers (OpenAI takes 2,048). */
const BATCH = 128;

export interface EmbeddingsClient {
  /** `embeddings:<model>` (or `embeddings` without a model), for the run's record. */
  readonly name: string;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

export interface EmbeddingsClientOptions {
  config: EmbeddingsConfig;
  timeoutMs?: number;
  retries?: number;
  log?: Logger;
  backoffBaseMs?: number;
  backoffCapMs?: number;
}

const answerSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
});

function profile(config: EmbeddingsConfig): HttpProfile {
  return {
    name: 'embeddings endpoint',
    auth: config.key === undefined ? { kind: 'none' } : { kind: 'bearer' },
    secretName: 'key',
    baseUrlSetting: 'REPORTER_EMBEDDINGS_URL',
    urlPrefix: () => config.url,
    describe: () => `POST ${config.url}`,
    errorShapes: PLATFORM_ERROR_SHAPES,
    authError: (status, detail) =>
      new EtlError(
        'embeddings.auth',
        `the embeddings endpoint ${config.url} refused the request with ${status}${detail}: ${config.key === undefined ? 'it may need a key (https://:KEY@host/v1/embeddings in REPORTER_EMBEDDINGS_URL)' : 'the key in REPORTER_EMBEDDINGS_URL may be wrong or revoked'}`,
      ),
    codes: {
      notFound: 'embeddings.not_found',
      badRequest: 'embeddings.bad_request',
      unavailable: 'embeddings.unavailable',
      retryAfterTooLong: 'embeddings.retry_after_too_long',
      requestFailed: 'embeddings.request_failed',
      unreachable: 'embeddings.unreachable',
    },
  };
}

export function createEmbeddingsClient(options: EmbeddingsClientOptions): EmbeddingsClient {
  const { config } = options;
  const transport = new HttpTransport({
    baseUrl: config.url,
    secret: config.key,
    concurrency: 1,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries,
    log: options.log,
    backoffBaseMs: options.backoffBaseMs,
    backoffCapMs: options.backoffCapMs,
    profile: profile(config),
  });
  const name = config.model === undefined ? 'embeddings' : `embeddings:${config.model}`;
  return {
    name,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let from = 0; from < texts.length; from += BATCH) {
        const input = texts.slice(from, from + BATCH);
        const body = config.model === undefined ? { input } : { input, model: config.model };
        const answer = await transport.json({ method: 'POST', op: '', body, read: true });
        out.push(...vectorsOf(answer, input.length, config.url));
      }
      return out;
    },
    close: () => transport.close(),
  };
}

/** One vector per text, in the texts' order (by `index`), all of one length. */
function vectorsOf(answer: unknown, count: number, url: string): Float32Array[] {
  const parsed = answerSchema.safeParse(answer);
  const bad = (why: string) =>
    new EtlError('embeddings.bad_answer', `the embeddings endpoint ${url} answered ${why}`);
  if (!parsed.success)
    throw bad(`what is not {data: [{index, embedding}]}: ${parsed.error.issues[0]?.message}`);
  const byIndex = new Map(parsed.data.data.map((d) => [d.index, d.embedding]));
  const vectors: Float32Array[] = [];
  for (let i = 0; i < count; i++) {
    const v = byIndex.get(i);
    if (v === undefined)
      throw bad(`${parsed.data.data.length} vectors for ${count} texts (none at index ${i})`);
    if (v.length === 0 || (vectors[0] !== undefined && v.length !== vectors[0].length))
      throw bad(`vectors of different lengths (${v.length} and ${vectors[0]?.length ?? 0})`);
    vectors.push(Float32Array.from(v));
  }
  return vectors;
}
