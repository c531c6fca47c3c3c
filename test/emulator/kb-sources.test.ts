// The knowledge base's sources, segments, integrations, projects and access groups over the emulator
// clock: indexing statuses of the generated sources match the truth at the start and after the clock moves
// (all final once past kbAllIndexedAt); a source added by text, link or file moves READY_TO_INGEST ->
// PROCESSING -> INGESTED (or FAILED_TO_INGEST with lastError); replace bumps the version; segments and
// integrations follow their rules. Expectations come from the truth or from what the test sent.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KB_COVERED_TOPICS } from '../../src/emulator/kb/kb-topic-answers.js';
import {
  kbAccessGroupsTruth,
  kbAllIndexedAt,
  kbIntegrationsTruth,
  kbKeys,
  kbSegmentsTruth,
  kbSourcesTruth,
  kbStatusCounts,
} from '../../src/emulator/kb/kb-truth.js';
import { API_PROCESSING_MS, API_QUEUE_MS } from '../../src/emulator/kb/source-indexing.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { makeKbCaller } from '../helpers/kb-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeKbCaller>;
let admin: ReturnType<typeof makeKbCaller>;

beforeAll(async () => {
  running = await startEmulator({ sessions: 50, days: 1, now: TEST_NOW, kb: { sources: 120 } });
  call = makeKbCaller(running.kbUrl);
  admin = makeKbCaller(running.kbUrl, kbKeys(running.emulator).adminKey);
});
afterAll(() => running.close());

const byStatus = (sources: { status: string }[]) =>
  sources.reduce<Record<string, number>>((acc, s) => {
    acc[s.status] = (acc[s.status] ?? 0) + 1;
    return acc;
  }, {});

describe('generated sources over time', () => {
  it('the list answers every source with its status at the clock, as the truth has them', async () => {
    const truth = kbSourcesTruth(running.emulator);
    // the 120 generated sources and the FAQ answers to some of the unhandled questions' topics
    expect(truth.length).toBe(120 + KB_COVERED_TOPICS.length);
    const r = await call('sources');
    expect(r.status).toBe(200);
    expect(r.body.sources.map((s: any) => [s.id, s.name, s.status, s.version, s.hash])).toEqual(
      truth.map((s) => [s.id, s.name, s.status, s.version, s.hash]),
    );
    const counts = kbStatusCounts(running.emulator);
    // the start holds every state: some queued or processing, some failed
    expect(counts.INGESTED).toBeGreaterThan(0);
    expect(counts.FAILED_TO_INGEST).toBeGreaterThan(0);
    expect(counts.READY_TO_INGEST + counts.PROCESSING).toBeGreaterThan(0);
    expect(byStatus(r.body.sources)).toEqual(
      Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0)),
    );
    for (const s of r.body.sources) {
      if (s.status === 'FAILED_TO_INGEST') expect(s.lastError).toEqual(expect.any(String));
      else expect(s.lastError).toBeUndefined();
      expect(s.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(s.sizeChars).toBeGreaterThan(0);
    }
  });

  it('sourceStatus and created-date filters select as the truth says', async () => {
    const truth = kbSourcesTruth(running.emulator);
    const failed = await call('sources?sourceStatus=FAILED_TO_INGEST');
    expect(failed.body.sources.map((s: any) => s.id)).toEqual(
      truth.filter((s) => s.status === 'FAILED_TO_INGEST').map((s) => s.id),
    );
    const day = truth[5]!.createdAt.slice(0, 10);
    const sameDay = await call(`sources?createDateFrom=${day}&createDateTo=${day}`);
    expect(sameDay.body.sources.map((s: any) => s.id)).toEqual(
      truth.filter((s) => s.createdAt.slice(0, 10) === day).map((s) => s.id),
    );
  });

  it('advancing the clock moves queued and processing sources to their final status', async () => {
    const emulator = running.emulator;
    const before = kbSourcesTruth(emulator).filter(
      (s) => s.status === 'READY_TO_INGEST' || s.status === 'PROCESSING',
    );
    expect(before.length).toBeGreaterThan(0);
    emulator.clock.set(kbAllIndexedAt(emulator));
    const r = await call('sources');
    const after = new Map(r.body.sources.map((s: any) => [s.id, s.status]));
    for (const s of before) expect(['INGESTED', 'FAILED_TO_INGEST']).toContain(after.get(s.id));
    expect(kbStatusCounts(emulator).READY_TO_INGEST + kbStatusCounts(emulator).PROCESSING).toBe(0);
  });
});

describe('sources added and replaced', () => {
  it('a text source: READY_TO_INGEST, PROCESSING after the queue, INGESTED after processing', async () => {
    const emulator = running.emulator;
    const text = 'The night ferry to Valaam leaves at 23:40.';
    const added = await call('sources/texts', { body: { text, name: 'ferry.txt', segments: ['transport'] } });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({
      name: 'ferry.txt',
      type: 'TEXT',
      status: 'READY_TO_INGEST',
      version: '1',
      sizeChars: text.length,
      segments: ['transport'],
      hash: `sha256:${createHash('sha256').update(text).digest('hex')}`,
    });
    const id = added.body.id;
    emulator.clock.advance(API_QUEUE_MS);
    expect((await call(`sources/${id}`)).body.status).toBe('PROCESSING');
    emulator.clock.advance(API_PROCESSING_MS);
    expect((await call(`sources/${id}`)).body.status).toBe('INGESTED');
    expect(kbSourcesTruth(emulator).find((s) => s.id === id)!.status).toBe('INGESTED');
    // the name is unique in the project
    const again = await call('sources/texts', { body: { text, name: 'ferry.txt' } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('kb.bad_request.duplicate_name');
  });

  it('replace: same id, version + 1, new hash, indexing again; an unknown name is 404', async () => {
    const emulator = running.emulator;
    const first = await call('sources/texts', { body: { text: 'Version one.', name: 'replace-me.md' } });
    emulator.clock.advance(API_QUEUE_MS + API_PROCESSING_MS);
    const replaced = await call('sources/texts', {
      method: 'PUT',
      body: { text: 'Version two, longer.', name: 'replace-me.md' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.id).toBe(first.body.id);
    expect(replaced.body.version).toBe('2');
    expect(replaced.body.status).toBe('READY_TO_INGEST');
    expect(replaced.body.hash).not.toBe(first.body.hash);
    expect(replaced.body.createdAt).toBe(first.body.createdAt);
    const missing = await call('sources/texts', { method: 'PUT', body: { text: 'x', name: 'nope.txt' } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('kb.not_found.source');
  });

  it('a multipart file: bytes and name from the upload; an unsupported type fails with lastError', async () => {
    const emulator = running.emulator;
    const content = 'Office plants are watered on Fridays.';
    const ok = await call('sources/files', {
      form: { file: { blob: new Blob([content]), filename: 'plants.md' }, segments: ['office', 'faq'] },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ name: 'plants.md', type: 'FILE', sizeBytes: Buffer.byteLength(content) });
    expect(ok.body.hash).toBe(`sha256:${createHash('sha256').update(content).digest('hex')}`);
    // a binary file: size and hash are those of its bytes, not of a text reading
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x80]);
    const binary = await call('sources/files', {
      form: { file: { blob: new Blob([bytes]), filename: 'blob.pdf' } },
    });
    expect(binary.body.sizeBytes).toBe(5);
    expect(binary.body.hash).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    expect(ok.body.segments).toEqual(['office', 'faq']);
    const bad = await call('sources/files', {
      form: { file: { blob: new Blob(['MZ binary']), filename: 'setup.exe' } },
    });
    expect(bad.status).toBe(200);
    emulator.clock.advance(API_QUEUE_MS + API_PROCESSING_MS);
    expect((await call(`sources/${ok.body.id}`)).body.status).toBe('INGESTED');
    const failed = await call(`sources/${bad.body.id}`);
    expect(failed.body.status).toBe('FAILED_TO_INGEST');
    expect(failed.body.lastError).toBe('unsupported file type .exe');
    const noFile = await call('sources/files', { form: { name: 'x.txt' } });
    expect(noFile.status).toBe(400);
  });

  it('a link: name from the address; an unreachable host fails with a download error', async () => {
    const emulator = running.emulator;
    const ok = await call('sources/links', { body: { link: 'https://docs.example.com/guides/onboarding' } });
    expect(ok.body).toMatchObject({ name: 'onboarding.html', type: 'LINK', status: 'READY_TO_INGEST' });
    const gone = await call('sources/links', {
      body: { link: 'https://gone.invalid/page', name: 'gone.html' },
    });
    emulator.clock.advance(API_QUEUE_MS + API_PROCESSING_MS);
    expect((await call(`sources/${gone.body.id}`)).body.lastError).toMatch(/^download failed/);
    const bad = await call('sources/links', { body: { link: 'ftp://x' } });
    expect(bad.status).toBe(400);
  });
});

describe('the truth over HTTP', () => {
  it('GET /__emulator/kb/truth answers the in-process truth at the clock (or at ?at=)', async () => {
    const e = running.emulator;
    const r = await fetch(`${running.url}/__emulator/kb/truth`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as any;
    expect(body.sources).toEqual(JSON.parse(JSON.stringify(kbSourcesTruth(e))));
    expect(body.keys).toEqual(kbKeys(e));
    const later = new Date(e.now() + 3_600_000).toISOString();
    const at = (await (await fetch(`${running.url}/__emulator/kb/truth?at=${later}`)).json()) as any;
    expect(at.asOf).toBe(later);
    expect(at.statusCounts).toEqual(kbStatusCounts(e, Date.parse(later)));
  });
});

describe('segments', () => {
  it('counts as the truth has them, with the segment that lost its sources at 0', async () => {
    const truth = kbSegmentsTruth(running.emulator);
    const r = await call('segments?pageSize=100');
    expect(r.body.segments).toEqual(truth.segments);
    expect(r.body.segments.find((s: any) => s.name === truth.orphan)).toEqual({
      name: truth.orphan,
      sourcesCount: 0,
    });
    expect(r.body.paging).toEqual({ totalCount: truth.segments.length, pageNum: 0, pageSize: 100 });
    const filtered = await call('segments?name=FAQ');
    expect(filtered.body.segments.map((s: any) => s.name).sort()).toEqual(
      truth.segments
        .filter((s) => s.name.includes('faq'))
        .map((s) => s.name)
        .sort(),
    );
  });

  it('add, remove and rename answer the updated sources', async () => {
    const [a, b] = kbSourcesTruth(running.emulator);
    const added = await call('segments/add-to-sources', {
      body: { sourceIds: [a!.id, b!.id], segments: ['promo'] },
    });
    expect(added.body.updatedFileIds).toEqual([a!.id, b!.id]);
    const renamed = await call('segments/rename', { body: { oldName: 'promo', newName: 'promo-2027' } });
    expect(renamed.body.updatedFileIds).toEqual([a!.id, b!.id]);
    expect((await call(`sources/${a!.id}`)).body.segments).toContain('promo-2027');
    const removed = await call('segments/remove-from-sources', {
      body: { sourceIds: [a!.id], segments: ['promo-2027'] },
    });
    expect(removed.body.updatedFileIds).toEqual([a!.id]);
    const none = await call('segments/remove-from-sources', {
      body: { sourceIds: [a!.id], segments: ['promo-2027'] },
    });
    expect(none.body.updatedFileIds).toEqual([]);
    const comma = await call('segments/add-to-sources', { body: { sourceIds: [a!.id], segments: ['a,b'] } });
    expect(comma.status).toBe(400);
    const noIds = await call('segments/remove-from-sources', { body: { segments: ['x'] } });
    expect(noIds.status).toBe(400);
  });
});

describe('integrations', () => {
  it('statuses, errors and last successes as the truth has them; auto-sync moves with the clock', async () => {
    const emulator = running.emulator;
    const r = await call('integrations');
    const truth = kbIntegrationsTruth(emulator);
    expect(
      r.body.integrations.map((i: any) => [i.id, i.status, i.lastError, i.lastSuccessfulSyncAt]),
    ).toEqual(
      // JSON.parse rounds the ids beyond 2^53 as it rounds the truth's (test/sources/kb/kb-big-ids.test.ts reads them exactly)
      truth.map((i) => [Number(i.id), i.status, i.lastError, i.lastSuccessfulSyncAt ?? undefined]),
    );
    const failed = truth.filter((i) => i.status === 'FAILED');
    expect(failed.length).toBeGreaterThan(0);
    for (const i of failed) {
      expect(i.lastError).toEqual(expect.any(String));
      expect(emulator.now() - Date.parse(i.lastSuccessfulSyncAt!)).toBeGreaterThan(
        i.syncIntervalMinutes * 60_000,
      );
    }
    const active = truth.find((i) => i.status === 'ACTIVE' && i.autoSync)!;
    emulator.clock.advance(active.syncIntervalMinutes * 60_000);
    const later = await call(`integrations/${active.id}`);
    expect(Date.parse(later.body.lastSuccessfulSyncAt)).toBe(
      Date.parse(active.lastSuccessfulSyncAt!) + active.syncIntervalMinutes * 60_000,
    );
    const stale = await call(`integrations/${failed[0]!.id}`);
    expect(stale.body.lastSuccessfulSyncAt).toBe(failed[0]!.lastSuccessfulSyncAt);
  });

  it('create: ACTIVE, first sync a minute later; interval below 30 is 400', async () => {
    const emulator = running.emulator;
    const created = await call('integrations', {
      body: {
        name: 'Notion',
        autoSync: true,
        syncIntervalMinutes: 30,
        settings: { baseUrl: 'https://notion.example.com' },
      },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({ status: 'ACTIVE', autoSync: true, syncIntervalMinutes: 30 });
    expect(created.body.lastSuccessfulSyncAt).toBeUndefined();
    emulator.clock.advance(60_000);
    expect((await call(`integrations/${created.body.id}`)).body.lastSuccessfulSyncAt).toBe(
      new Date(emulator.now()).toISOString(),
    );
    const bad = await call('integrations', {
      body: { name: 'x', syncIntervalMinutes: 10, settings: { baseUrl: 'https://x.example.com' } },
    });
    expect(bad.status).toBe(400);
  });
});

describe('projects, settings and access groups (administrative key)', () => {
  it('projects: list paged, create, rename', async () => {
    const list = await admin('projects?pageSize=2');
    expect(list.body.paging).toMatchObject({ pageNum: 0, pageSize: 2 });
    expect(list.body.content.length).toBe(2);
    const created = await admin('projects', { body: { name: 'docs-kb' } });
    expect(created.body).toMatchObject({ name: 'docs-kb', status: 'CREATED' });
    const renamed = await admin(`projects/${created.body.id}`, {
      method: 'PUT',
      body: { name: 'docs-kb-2' },
    });
    expect(renamed.body.name).toBe('docs-kb-2');
    const found = await admin('projects?name=DOCS');
    expect(found.body.content.map((p: any) => p.name)).toEqual(['docs-kb-2']);
    const dup = await admin('projects', { body: { name: 'docs-kb-2' } });
    expect(dup.status).toBe(400);
  });

  it('settings: a POST must carry indexing, search and generation; the answer is what was stored', async () => {
    const { projectId } = kbKeys(running.emulator);
    const settings = (await call(`projects/${projectId}/settings`)).body;
    expect(settings.generation.rpmLimit).toEqual(expect.any(Number));
    expect(settings.generation.llm.model).toEqual(expect.any(String));
    const changed = {
      ...settings,
      generation: { ...settings.generation, llm: { ...settings.generation.llm, model: 'gpt-5' } },
    };
    const saved = await call(`projects/${projectId}/settings`, { body: changed });
    expect(saved.body.generation.llm.model).toBe('gpt-5');
    expect((await call(`projects/${projectId}/settings`)).body).toEqual(changed);
    const partial = await call(`projects/${projectId}/settings`, { body: { indexing: settings.indexing } });
    expect(partial.status).toBe(400);
  });

  it('access groups: counts as the truth has them, the empty one at 0; one group with its files', async () => {
    const truth = kbAccessGroupsTruth(running.emulator);
    const r = await admin('access-groups?pageSize=100');
    expect(r.body.content.map((g: any) => [g.name, g.filesCount, g.integrationsCount])).toEqual(
      truth.groups.map((g) => [g.name, g.filesCount, g.integrationsCount]),
    );
    expect(r.body.content.find((g: any) => g.name === truth.empty)).toMatchObject({
      filesCount: 0,
      integrationsCount: 0,
    });
    const staff = truth.groups.find((g) => g.name === 'staff')!;
    const one = await admin(`access-groups/${staff.id}?pageSize=100`);
    expect(one.body.attribute.name).toBe('staff');
    expect(one.body.files.length).toBe(staff.filesCount);
    expect(one.body.paging.totalCount).toBe(staff.filesCount);
    const long = await admin(`access-groups?name=${'x'.repeat(101)}`);
    expect(long.status).toBe(400);
  });
});
