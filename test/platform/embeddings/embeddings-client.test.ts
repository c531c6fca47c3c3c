// The embeddings client (REPORTER_EMBEDDINGS_URL) against a local endpoint whose answers the test chooses:
// texts sent in batches of at most 128, the model named, the key as a bearer, vectors returned in the texts'
// order whatever order the endpoint lists them in, and an answer it cannot use refused as embeddings.bad_answer
// (never a vector silently given to the wrong text).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtlError } from '../../../src/errors.js';
import { createEmbeddingsClient } from '../../../src/platform/embeddings/embeddings-client.js';

interface Request {
  input: string[];
  model?: string;
  authorization: string | undefined;
}

const requests: Request[] = [];
/** How the endpoint answers a batch; by default each text's vector is [its length, its batch index]. */
let answer = (input: string[]): unknown => ({
  data: input.map((t, index) => ({ index, embedding: [t.length, index] })).reverse(),
});
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const parsed = JSON.parse(body) as { input: string[]; model?: string };
      requests.push({ ...parsed, authorization: req.headers.authorization });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(answer(parsed.input)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/embeddings`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const KEY = 'embeddings-test-key-0123';

describe('the embeddings client', () => {
  it('sends batches of at most 128 texts with the model and the key, and returns vectors in the texts’ order', async () => {
    requests.length = 0;
    const client = createEmbeddingsClient({ config: { url, key: KEY, model: 'm-1' }, retries: 0 });
    const texts = Array.from({ length: 300 }, (_, i) => 'x'.repeat(i + 1));
    const vectors = await client.embed(texts);
    await client.close();
    expect(requests.map((r) => r.input.length)).toEqual([128, 128, 44]);
    expect(requests.every((r) => r.model === 'm-1' && r.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(vectors.map((v) => v[0])).toEqual(texts.map((t) => t.length));
    expect(client.name).toBe('embeddings:m-1');
  });

  it.each([
    [
      'a vector missing',
      (input: string[]) => ({ data: input.slice(1).map((_, i) => ({ index: i + 1, embedding: [1] })) }),
    ],
    [
      'vectors of two lengths',
      (input: string[]) => ({
        data: input.map((_, index) => ({ index, embedding: index === 0 ? [1] : [1, 2] })),
      }),
    ],
    ['no data', () => ({ object: 'list' })],
  ])('refuses an answer with %s as embeddings.bad_answer', async (_, bad) => {
    answer = bad;
    const client = createEmbeddingsClient({ config: { url, key: undefined, model: undefined }, retries: 0 });
    const error = await client.embed(['one', 'two']).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(EtlError);
    expect((error as EtlError).code).toBe('embeddings.bad_answer');
    expect(requests.at(-1)?.model).toBeUndefined();
    expect(requests.at(-1)?.authorization).toBeUndefined();
  });
});
