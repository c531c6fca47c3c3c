// Retrieval and generation on the emulated knowledge base: for every answerable truth question the top
// chunk comes from the question's source and the answer contains the expected text; an unanswerable
// question FAILS; async records long-poll (held until finished, or for waitTimeSeconds); cancel; chats with
// their history and retry; the SSE stream's order (start, chunks joining to the response, done), its
// error event and a cut stream; 429 with Retry-After from the project's rpmLimit and from a fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KB_UNANSWERABLE_QUESTION,
  kbAllIndexedAt,
  kbExpectedSources,
  kbKeys,
  kbQuestions,
} from '../../src/emulator/kb/kb-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { makeKbCaller, readStream } from '../helpers/kb-client.js';

const PROCESSING_MS = 1500;
let running: RunningEmulator;
let call: ReturnType<typeof makeKbCaller>;

beforeAll(async () => {
  running = await startEmulator({
    sessions: 50,
    days: 1,
    now: TEST_NOW,
    kb: { sources: 60, queryProcessingMs: PROCESSING_MS },
  });
  call = makeKbCaller(running.kbUrl);
});
afterAll(() => running.close());

describe('retrieval', () => {
  it('each answerable question retrieves its own source first, ranked by score', async () => {
    const questions = kbQuestions(running.emulator);
    const answerable = questions.filter((q) => q.answerable);
    expect(answerable.length).toBeGreaterThan(30);
    for (const q of answerable) {
      const r = await call('retrieve', { body: { query: q.question } });
      expect(r.status).toBe(200);
      const chunks = r.body.chunks;
      expect(chunks[0].source.title, q.question).toBe(q.sourceName);
      expect(kbExpectedSources(running.emulator, q.question)).toEqual([q.sourceName]);
      expect(chunks[0].content).toContain(q.expectedAnswerContains);
      const scores = chunks.map((c: any) => c.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(chunks.length).toBeLessThanOrEqual(5);
    }
  });

  it('a source not INGESTED is not retrieved: its question finds another source', async () => {
    const unanswerable = kbQuestions(running.emulator).filter((q) => !q.answerable);
    expect(unanswerable.length).toBeGreaterThan(0);
    for (const q of unanswerable) {
      expect(kbExpectedSources(running.emulator, q.question)).toEqual([]);
      const r = await call('retrieve', { body: { query: q.question } });
      expect(r.body.chunks.map((c: any) => c.source.id)).not.toContain(q.sourceId);
    }
  });

  it('deterministic: the same query answers the same chunks; topK and segments narrow them', async () => {
    const q = kbQuestions(running.emulator).find((x) => x.answerable)!.question;
    const a = await call('retrieve', { body: { query: q } });
    const b = await call('retrieve', { body: { query: q } });
    expect(b.body).toEqual(a.body);
    const one = await call('retrieve', { body: { query: q, settings: { search: { similarityTopK: 1 } } } });
    expect(one.body.chunks).toEqual(a.body.chunks.slice(0, 1));
    const none = await call('retrieve', {
      body: { query: q, settings: { search: { segments: ['no-such-segment'] } } },
    });
    expect(none.body.chunks).toEqual([]);
  });
});

describe('generation', () => {
  it('sync: FINISHED with the expected text and its source first among relevantSources', async () => {
    const q = kbQuestions(running.emulator).find((x) => x.answerable)!;
    const started = Date.now();
    const r = await call('query', { body: { query: q.question } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(PROCESSING_MS - 50);
    expect(r.body.status).toBe('FINISHED');
    expect(r.body.response).toContain(q.expectedAnswerContains);
    expect(r.body.relevantSources[0].title).toBe(q.sourceName);
    expect(Date.parse(r.body.updatedAt) - Date.parse(r.body.createdAt)).toBe(PROCESSING_MS);
    expect(r.body.createdAt).toBe(new Date(running.emulator.now()).toISOString());
  });

  it('a question matching no source FAILS with a comment', async () => {
    const r = await call('query', { body: { query: KB_UNANSWERABLE_QUESTION } });
    expect(r.body.status).toBe('FAILED');
    expect(r.body.comment).toMatch(/^kb\.no_relevant_chunks: /);
    expect(r.body.response).toBeUndefined();
  });

  it('async + long polling: 0 answers at once, a wait is held until the record finishes', async () => {
    const q = kbQuestions(running.emulator).find((x) => x.answerable)!;
    const submitted = await call('async/query', { body: { query: q.question } });
    expect(submitted.body.status).toBe('READY_TO_PROCESS');
    const id = submitted.body.id;
    let t = Date.now();
    const now = await call(`query/${id}?waitTimeSeconds=0`);
    expect(Date.now() - t).toBeLessThan(1000);
    expect(['READY_TO_PROCESS', 'PROCESSING']).toContain(now.body.status);
    t = Date.now();
    const done = await call(`query/${id}?waitTimeSeconds=10`);
    const held = Date.now() - t;
    expect(done.body.status).toBe('FINISHED');
    expect(held).toBeLessThan(PROCESSING_MS + 2000);
    expect(held).toBeGreaterThan(PROCESSING_MS / 3);
    expect(done.body.response).toContain(q.expectedAnswerContains);
  });

  it('a wait shorter than the processing answers PROCESSING after the wait', async () => {
    running.emulator.kb.options.queryProcessingMs = 4000;
    try {
      const submitted = await call('async/query', { body: { query: 'warranty kettle' } });
      const t = Date.now();
      const r = await call(`query/${submitted.body.id}?waitTimeSeconds=1`);
      const held = Date.now() - t;
      expect(r.body.status).toBe('PROCESSING');
      expect(held).toBeGreaterThanOrEqual(950);
      expect(held).toBeLessThan(3000);
    } finally {
      running.emulator.kb.options.queryProcessingMs = PROCESSING_MS;
    }
  });

  it('cancel: CANCELED at once, and a waiting poll is released', async () => {
    const submitted = await call('async/query', { body: { query: 'subscription cost' } });
    const id = submitted.body.id;
    const poll = call(`query/${id}?waitTimeSeconds=20`);
    await new Promise((r) => setTimeout(r, 100));
    const t = Date.now();
    const canceled = await call(`query/${id}/cancel`, { method: 'POST' });
    expect(canceled.body.status).toBe('CANCELED');
    expect((await poll).body.status).toBe('CANCELED');
    expect(Date.now() - t).toBeLessThan(2000);
  });

  it('a queryFail fault makes a generation FAIL', async () => {
    const rule = running.emulator.faults.script({ type: 'queryFail', path: 'kb/query' });
    const q = kbQuestions(running.emulator).find((x) => x.answerable)!;
    const r = await call('query', { body: { query: q.question } });
    expect(r.body.status).toBe('FAILED');
    expect(r.body.comment).toMatch(/^kb\.llm_error: /);
    expect(rule.fired).toBe(1);
  });
});

describe('chats', () => {
  it('create, get, a follow-up answered from the chat history, status and retry', async () => {
    const q = kbQuestions(running.emulator).find((x) => x.answerable)!;
    const chat = await call('chat', { body: { name: 'support' } });
    expect(chat.body).toMatchObject({ name: 'support', settings: {} });
    const id = chat.body.id;
    expect((await call(`chat/${id}`)).body).toEqual(chat.body);
    const first = await call(`chat/${id}/query`, { body: { query: q.question } });
    expect(first.body).toMatchObject({ chatId: id, status: 'FINISHED' });
    expect(first.body.response).toContain(q.expectedAnswerContains);
    // a follow-up with no known word is searched with the chat's previous question
    const followUp = await call(`async/chat/${id}/query`, { body: { query: 'And again?' } });
    expect(followUp.body.chatId).toBe(id);
    const done = await call(`chat/${id}/query/${followUp.body.id}?waitTimeSeconds=10`);
    expect(done.body.status).toBe('FINISHED');
    expect(done.body.relevantSources[0].title).toBe(q.sourceName);
    // a project query is not a query of the chat
    const other = await call('async/query', { body: { query: q.question } });
    expect((await call(`chat/${id}/query/${other.body.id}`)).status).toBe(404);
    // retry: in progress is refused; a finished query runs again on the same id
    const busy = await call(`async/chat/${id}/query`, { body: { query: q.question } });
    const refused = await call(`chat/${id}/query/${busy.body.id}/retry`, { method: 'POST' });
    expect(refused.status).toBe(400);
    const retried = await call(`chat/${id}/query/${first.body.id}/retry`, { method: 'POST' });
    expect(retried.body).toMatchObject({ id: first.body.id, chatId: id, status: 'READY_TO_PROCESS' });
    const again = await call(`chat/${id}/query/${first.body.id}?waitTimeSeconds=10`);
    expect(again.body.response).toBe(first.body.response);
    // a follow-up retried is searched with the questions sent before it, not with itself
    const followUpAgain = await call(`chat/${id}/query/${followUp.body.id}/retry`, { method: 'POST' });
    expect(followUpAgain.status).toBe(200);
    const followUpDone = await call(`chat/${id}/query/${followUp.body.id}?waitTimeSeconds=10`);
    expect(followUpDone.body.relevantSources[0].title).toBe(q.sourceName);
    const retrieved = await call(`chat/${id}/retrieve`, { body: { query: q.question } });
    expect(retrieved.body.chunks[0].source.title).toBe(q.sourceName);
  });
});

describe('SSE stream', () => {
  it('start, chunks that join to the response, then done with the final record', async () => {
    const q = kbQuestions(running.emulator).find((x) => x.answerable)!;
    const s = await readStream(running.kbUrl, { query: q.question });
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    expect(s.cut).toBe(false);
    const names = s.events.map((e) => e.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('done');
    expect(names.slice(1, -1).every((n) => n === 'chunk')).toBe(true);
    expect(names.length).toBeGreaterThan(3);
    const done = s.events.at(-1)!.data;
    expect(done.status).toBe('FINISHED');
    expect(
      s.events
        .filter((e) => e.event === 'chunk')
        .map((e) => e.data.text)
        .join(''),
    ).toBe(done.response);
    expect(done.response).toContain(q.expectedAnswerContains);
    expect(s.events[0]!.data.id).toBe(done.id);
  });

  it('a failed generation ends with an error event {code, description}', async () => {
    const s = await readStream(running.kbUrl, { query: KB_UNANSWERABLE_QUESTION });
    expect(s.events.map((e) => e.event)).toEqual(['start', 'error']);
    expect(s.events[1]!.data).toEqual({ code: 'kb.no_relevant_chunks', description: expect.any(String) });
  });

  it('a streamCut fault drops the connection after the given chunks, without done', async () => {
    const rule = running.emulator.faults.script({ type: 'streamCut', count: 2 });
    const q = kbQuestions(running.emulator).find((x) => x.answerable)!;
    const s = await readStream(running.kbUrl, { query: q.question });
    expect(rule.fired).toBe(1);
    expect(s.cut).toBe(true);
    expect(s.events.map((e) => e.event)).toEqual(['start', 'chunk', 'chunk']);
    // the record still finishes on the server: a client can read it after the cut
    const record = await call(`query/${s.events[0]!.data.id}?waitTimeSeconds=10`);
    expect(record.body.status).toBe('FINISHED');
  });
});

describe('faults by rate', () => {
  it('a rate of 1 answers every KB request with the fault in {code, description}; cleared, it answers again', async () => {
    const e = running.emulator;
    e.faults.setRates({ status503: 1 });
    try {
      const r = await call('sources');
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ code: 'kb.service_unavailable', description: expect.any(String) });
    } finally {
      e.faults.clear();
    }
    expect((await call('sources')).status).toBe(200);
  });

  it('slow and drop faults reach the KB paths', async () => {
    const e = running.emulator;
    const slow = e.faults.script({ type: 'slow', path: 'kb/info', delayMs: 400 });
    const t = Date.now();
    expect((await call('info')).status).toBe(200);
    expect(Date.now() - t).toBeGreaterThanOrEqual(380);
    e.faults.script({ type: 'drop', path: 'kb/segments' });
    await expect(call('segments')).rejects.toThrow();
    expect(slow.fired).toBe(1);
    e.faults.assertAllFired();
    e.faults.clear();
  });
});

describe('429 with Retry-After', () => {
  it("the project's rpmLimit refuses generations beyond it, retrieval still answers", async () => {
    const { projectId } = kbKeys(running.emulator);
    const settings = (await call(`projects/${projectId}/settings`)).body;
    settings.generation.rpmLimit = 2;
    expect((await call(`projects/${projectId}/settings`, { body: settings })).status).toBe(200);
    const statuses: number[] = [];
    let limited: any;
    for (let n = 0; n < 3; n++) {
      const r = await call('async/query', { body: { query: 'kettle warranty' } });
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(limited.body.code).toBe('kb.too_many_requests.rpm_limit');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await call('retrieve', { body: { query: 'kettle' } })).status).toBe(200);
    settings.generation.rpmLimit = 600;
    await call(`projects/${projectId}/settings`, { body: settings });
  });

  it('a status429 fault answers {code, description} with its Retry-After; 503 too', async () => {
    const e = running.emulator;
    e.faults.script({ type: 'status429', path: 'kb/sources', retryAfter: 7 });
    e.faults.script({ type: 'status503', path: 'kb/segments' });
    const r = await call('sources');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.body).toEqual({ code: 'kb.too_many_requests', description: expect.any(String) });
    const u = await call('segments');
    expect(u.status).toBe(503);
    expect(u.body.code).toBe('kb.service_unavailable');
    e.faults.assertAllFired();
    expect((await call('sources')).status).toBe(200);
  });

  it('after every source is indexed the failed questions stay unanswerable, the rest answerable', () => {
    const e = running.emulator;
    e.clock.set(kbAllIndexedAt(e));
    const qs = kbQuestions(e);
    expect(qs.filter((q) => q.answerable).length).toBeGreaterThan(qs.length * 0.8);
  });
});
