// askCentralQuestions with a client that answers, finds nothing, fails or refuses the key: the best chunk is
// the highest score whatever the order; nothing retrieved is score 0 with no source; a failed retrieval is
// kept as that cluster's error and the next one is asked; a refused key (kb.auth) stops the asking.
import { describe, expect, it } from 'vitest';
import { askCentralQuestions } from '../../../src/analysis/kb-eval/ask-central-questions.js';
import { EtlError } from '../../../src/errors.js';
import type { KbQueryRequest } from '../../../src/platform/kb/kb-client.js';
import type { KbChunk } from '../../../src/platform/kb/kb-schemas.js';

const chunk = (score: number, id: number, title: string): KbChunk => ({
  score,
  content: `text of ${title}`,
  source: { id, title },
});

const client = {
  async retrieve(request: KbQueryRequest): Promise<KbChunk[]> {
    if (request.query === 'fails') throw new EtlError('kb.unavailable', 'the service answered 503');
    if (request.query === 'refused') throw new EtlError('kb.auth', 'the key was refused');
    if (request.query === 'nothing') return [];
    return [chunk(0.4, 1, 'a.txt'), chunk(0.9, 2, 'b.txt'), chunk(0.7, 3, 'c.txt')];
  },
};

describe('askCentralQuestions', () => {
  it('keeps the best chunk, an empty answer as score 0, a failure as its error', async () => {
    const answers = await askCentralQuestions(client, [
      { clusterId: 'u-1', question: 'found' },
      { clusterId: 'u-2', question: 'fails' },
      { clusterId: 'u-3', question: 'nothing' },
    ]);
    expect(answers).toEqual([
      {
        clusterId: 'u-1',
        question: 'found',
        asked: true,
        sourceId: '2',
        sourceName: 'b.txt',
        score: 0.9,
        chunk: 'text of b.txt',
        error: null,
      },
      {
        clusterId: 'u-2',
        question: 'fails',
        asked: false,
        sourceId: null,
        sourceName: null,
        score: null,
        chunk: null,
        error: 'kb.unavailable: the service answered 503',
      },
      {
        clusterId: 'u-3',
        question: 'nothing',
        asked: true,
        sourceId: null,
        sourceName: null,
        score: 0,
        chunk: null,
        error: null,
      },
    ]);
  });

  it('stops at a refused key', async () => {
    await expect(
      askCentralQuestions(client, [
        { clusterId: 'u-1', question: 'refused' },
        { clusterId: 'u-2', question: 'found' },
      ]),
    ).rejects.toMatchObject({ code: 'kb.auth' });
  });
});
