// The knowledge base's retrieval without HTTP, over several seeds and the largest world (200 sources):
// every answerable truth question ranks its own source first; access groups and segments filter as
// docs/emulator.md says; a follow-up without known words is searched with the latest user message of its
// history; the generated world has every state the brief asks for (queued, processing, failed, orphan
// segment, empty group, failed integrations, expired and revoked keys).
import { describe, expect, it } from 'vitest';
import { Emulator } from '../../src/emulator/emulator.js';
import { parseAsk, retrieveChunks } from '../../src/emulator/kb/kb-generation.js';
import {
  KB_UNANSWERABLE_QUESTION,
  kbAccessGroupsTruth,
  kbAllIndexedAt,
  kbApiKeysTruth,
  kbIntegrationsTruth,
  kbKeys,
  kbQuestions,
  kbSegmentsTruth,
  kbStatusCounts,
} from '../../src/emulator/kb/kb-truth.js';
import { TEST_NOW } from '../helpers/emulator-client.js';

function world(seed: number, sources = 200): Emulator {
  return new Emulator({ seed, sessions: 20, days: 1, now: TEST_NOW, kb: { sources } });
}

describe('retrieval ranks the question source first', () => {
  for (const seed of [1, 7, 42, 2026]) {
    it(`seed ${seed}, 200 sources`, async () => {
      const e = world(seed);
      try {
        const { projectId } = kbKeys(e);
        const questions = kbQuestions(e).filter((q) => q.answerable);
        expect(questions.length).toBeGreaterThan(150);
        expect(new Set(kbQuestions(e).map((q) => q.sourceName)).size).toBe(200);
        for (const q of questions) {
          const chunks = retrieveChunks(e.kb, projectId, e.now(), parseAsk({ query: q.question }));
          expect(chunks[0]?.source.name, q.question).toBe(q.sourceName);
          expect(chunks[0]!.content).toContain(q.expectedAnswerContains);
          expect(chunks[0]!.score).toBeGreaterThan(
            chunks.find((c) => c.source.name !== q.sourceName)?.score ?? 0,
          );
        }
        expect(
          retrieveChunks(e.kb, projectId, e.now(), parseAsk({ query: KB_UNANSWERABLE_QUESTION })),
        ).toEqual([]);
      } finally {
        await e.close();
      }
    });
  }
});

describe('filters and history', () => {
  it('access groups: no accessSettings sees all; a group sees its own and the ungrouped sources', async () => {
    const e = world(42);
    try {
      const { projectId } = kbKeys(e);
      const grouped = kbQuestions(e).find(
        (q) => q.answerable && e.kb.sources.get(q.sourceId)!.accessControlAttributes.length > 0,
      )!;
      const groups = e.kb.sources.get(grouped.sourceId)!.accessControlAttributes;
      const top = (accessControlAttributes?: string[]) =>
        retrieveChunks(
          e.kb,
          projectId,
          e.now(),
          parseAsk({
            query: grouped.question,
            ...(accessControlAttributes ? { accessSettings: { accessControlAttributes } } : {}),
          }),
        )[0]?.source.name;
      expect(top()).toBe(grouped.sourceName);
      expect(top(groups)).toBe(grouped.sourceName);
      expect(top(['nobody'])).not.toBe(grouped.sourceName);
    } finally {
      await e.close();
    }
  });

  it('segments: only sources carrying one; include_without_segments adds the sources without any', async () => {
    const e = world(42);
    try {
      const { projectId } = kbKeys(e);
      const bare = kbQuestions(e).find(
        (q) => q.answerable && e.kb.sources.get(q.sourceId)!.segments.length === 0,
      )!;
      const ask = (segments: string[]) =>
        retrieveChunks(
          e.kb,
          projectId,
          e.now(),
          parseAsk({ query: bare.question, settings: { search: { segments } } }),
        );
      expect(ask(['regions', 'products', 'subscriptions']).map((c) => c.source.name)).not.toContain(
        bare.sourceName,
      );
      expect(ask(['include_without_segments'])[0]!.source.name).toBe(bare.sourceName);
      for (const c of ask(['products'])) expect(c.source.segments).toContain('products');
    } finally {
      await e.close();
    }
  });

  it('a follow-up without known words is searched with the latest user message of its history', async () => {
    const e = world(42);
    try {
      const { projectId } = kbKeys(e);
      const q = kbQuestions(e).find((x) => x.answerable)!;
      const alone = retrieveChunks(e.kb, projectId, e.now(), parseAsk({ query: 'And then?' }));
      expect(alone).toEqual([]);
      const followUp = retrieveChunks(
        e.kb,
        projectId,
        e.now(),
        parseAsk({ query: 'And then?', history: [{ role: 'user', content: q.question }] }),
      );
      expect(followUp[0]!.source.name).toBe(q.sourceName);
    } finally {
      await e.close();
    }
  });
});

describe('the generated world', () => {
  it('holds every state: queued, processing, failed, orphan segment, empty group, failed integrations, keys', async () => {
    for (const seed of [1, 42]) {
      const e = world(seed, 40);
      try {
        const counts = kbStatusCounts(e);
        expect(counts.INGESTED).toBeGreaterThan(20);
        expect(counts.READY_TO_INGEST + counts.PROCESSING).toBeGreaterThan(0);
        expect(kbStatusCounts(e, kbAllIndexedAt(e)).FAILED_TO_INGEST).toBeGreaterThanOrEqual(2);
        expect(kbStatusCounts(e, kbAllIndexedAt(e)).READY_TO_INGEST).toBe(0);
        const segments = kbSegmentsTruth(e);
        expect(segments.segments.find((s) => s.name === segments.orphan)?.sourcesCount).toBe(0);
        const groups = kbAccessGroupsTruth(e);
        expect(groups.groups.find((g) => g.name === groups.empty)).toMatchObject({
          filesCount: 0,
          integrationsCount: 0,
        });
        const integrations = kbIntegrationsTruth(e);
        expect(integrations.filter((i) => i.status === 'FAILED').every((i) => i.lastError)).toBe(true);
        expect(new Set(integrations.map((i) => i.status))).toEqual(new Set(['ACTIVE', 'FAILED', 'PAUSED']));
        expect(
          kbApiKeysTruth(e)
            .map((k) => k.status)
            .sort(),
        ).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE', 'EXPIRED', 'REVOKED']);
      } finally {
        await e.close();
      }
    }
  });

  it('is deterministic: the same seed and clock give the same sources and texts', async () => {
    const a = world(5, 100);
    const b = world(5, 100);
    try {
      const pick = (e: Emulator) =>
        e.kb.sourcesOf(kbKeys(e).projectId).map((s) => [s.name, s.text, s.indexing, s.hash]);
      expect(pick(a)).toEqual(pick(b));
      const other = world(6, 100);
      expect(pick(other)).not.toEqual(pick(a));
      await other.close();
    } finally {
      await a.close();
      await b.close();
    }
  });
});
