// Contract tests of the knowledge base: every operation of spec/kb-api.yaml is called on the running
// emulator with the key it needs, and its answer validated against the operation's response schema
// (properties the spec does not name are errors); the SSE events against QueryRecord and ErrorBody; error
// answers against ErrorBody.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KB_UNANSWERABLE_QUESTION, kbKeys, kbQuestions } from '../../src/emulator/kb/kb-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { type KbCallOptions, makeKbCaller, readStream } from '../helpers/kb-client.js';
import { OpenApiValidator } from '../helpers/openapi-validator.js';

const SPEC = fileURLToPath(new URL('../../spec/kb-api.yaml', import.meta.url));
const spec = OpenApiValidator.fromYamlFile(SPEC, { extraProperties: 'error', dateTime: 'strict' });
let running: RunningEmulator;
let call: ReturnType<typeof makeKbCaller>;
let keys: ReturnType<typeof kbKeys>;

beforeAll(async () => {
  running = await startEmulator({ sessions: 50, days: 1, now: TEST_NOW, kb: { queryProcessingMs: 50 } });
  call = makeKbCaller(running.kbUrl);
  keys = kbKeys(running.emulator);
});
afterAll(() => running.close());

type Call = { path: string } & KbCallOptions;
const question = () => kbQuestions(running.emulator).find((q) => q.answerable)!.question;
const admin = (c: Call): Call => ({ ...c, key: keys.adminKey });
async function chatId(): Promise<number> {
  return (await call('chat', { body: { name: 'contract' } })).body.id;
}
async function chatQuery(): Promise<{ chat: number; query: number }> {
  const chat = await chatId();
  const q = await call(`chat/${chat}/query`, { body: { query: question() } });
  return { chat, query: q.body.id };
}
async function newProject(): Promise<number> {
  return (await call('projects', { key: keys.adminKey, body: { name: `p-${Math.random()}` } })).body.id;
}
async function newKey(): Promise<number> {
  return (await call(`projects/${keys.projectId}/api-keys`, { key: keys.adminKey, body: { name: 'x' } })).body
    .id;
}

/** How to call each operation of the spec. */
const CALLS: Record<string, () => Promise<Call>> = {
  listProjects: async () => admin({ path: 'projects' }),
  createProject: async () => admin({ path: 'projects', body: { name: 'contract-project' } }),
  getProjectInfo: async () => ({ path: 'info' }),
  renameProject: async () =>
    admin({ path: `projects/${await newProject()}`, method: 'PUT', body: { name: 'renamed' } }),
  deleteProject: async () => admin({ path: `projects/${await newProject()}`, method: 'DELETE' }),
  getProjectSettings: async () => ({ path: `projects/${keys.projectId}/settings` }),
  updateProjectSettings: async () => ({
    path: `projects/${keys.projectId}/settings`,
    body: (await call(`projects/${keys.projectId}/settings`)).body,
  }),
  retrieve: async () => ({ path: 'retrieve', body: { query: question() } }),
  generate: async () => ({ path: 'query', body: { query: question() } }),
  generateAsync: async () => ({ path: 'async/query', body: { query: question() } }),
  generateStream: async () => ({ path: 'query/stream' }),
  getQueryStatus: async () => ({
    path: `query/${(await call('async/query', { body: { query: question() } })).body.id}?waitTimeSeconds=5`,
  }),
  cancelQuery: async () => ({
    path: `query/${(await call('async/query', { body: { query: question() } })).body.id}/cancel`,
    method: 'POST',
  }),
  createChat: async () => ({
    path: 'chat',
    body: { name: 'c', settings: { search: { similarityTopK: 3 } } },
  }),
  getChat: async () => ({ path: `chat/${await chatId()}` }),
  chatRetrieve: async () => ({ path: `chat/${await chatId()}/retrieve`, body: { query: question() } }),
  chatGenerate: async () => ({ path: `chat/${await chatId()}/query`, body: { query: question() } }),
  chatGenerateAsync: async () => ({
    path: `async/chat/${await chatId()}/query`,
    body: { query: question() },
  }),
  getChatQueryStatus: async () => {
    const { chat, query } = await chatQuery();
    return { path: `chat/${chat}/query/${query}?waitTimeSeconds=0` };
  },
  retryChatQuery: async () => {
    const { chat, query } = await chatQuery();
    return { path: `chat/${chat}/query/${query}/retry`, method: 'POST' };
  },
  listSources: async () => ({ path: 'sources' }),
  addSourceLink: async () => ({
    path: 'sources/links',
    body: { link: 'https://x.example.com/a/contract-add', segments: ['s'] },
  }),
  replaceSourceLink: async () => {
    await call('sources/links', { body: { link: 'https://x.example.com/b', name: 'contract.html' } });
    return {
      path: 'sources/links',
      method: 'PUT',
      body: { link: 'https://x.example.com/c', name: 'contract.html' },
    };
  },
  addSourceText: async () => ({
    path: 'sources/texts',
    body: { text: 'Contract text.', name: 'contract-text.txt' },
  }),
  replaceSourceText: async () => {
    await call('sources/texts', { body: { text: 'Replace me.', name: 'replace-text.txt' } });
    return { path: 'sources/texts', method: 'PUT', body: { text: 'Replaced.', name: 'replace-text.txt' } };
  },
  addSourceFile: async () => ({
    path: 'sources/files',
    form: { file: { blob: new Blob(['file text']), filename: 'contract-file.md' } },
  }),
  replaceSourceFile: async () => {
    const file = (text: string) => ({ file: { blob: new Blob([text]), filename: 'replace-file.md' } });
    await call('sources/files', { form: file('file text') });
    return { path: 'sources/files', method: 'PUT', form: file('file text 2') };
  },
  getSource: async () => ({ path: `sources/${(await call('sources')).body.sources[0].id}` }),
  createIntegration: async () => ({
    path: 'integrations',
    body: {
      name: 'i',
      autoSync: true,
      syncIntervalMinutes: 45,
      settings: { baseUrl: 'https://i.example.com' },
    },
  }),
  listIntegrations: async () => ({ path: 'integrations' }),
  getIntegration: async () => ({ path: 'integrations/3003' }),
  listSegments: async () => ({ path: 'segments' }),
  renameSegment: async () => ({ path: 'segments/rename', body: { oldName: 'faq', newName: 'faq-2' } }),
  addSegmentsToSources: async () => ({ path: 'segments/add-to-sources', body: { segments: ['all'] } }),
  removeSegmentsFromSources: async () => ({
    path: 'segments/remove-from-sources',
    body: { sourceIds: [(await call('sources')).body.sources[0].id], segments: ['all'] },
  }),
  createApiKey: async () =>
    admin({
      path: `projects/${keys.projectId}/api-keys`,
      body: { name: 'k', expiredAt: '2027-01-01T00:00:00Z' },
    }),
  listApiKeys: async () => admin({ path: `projects/${keys.projectId}/api-keys?pageSize=100` }),
  revokeApiKey: async () =>
    admin({ path: `projects/${keys.projectId}/api-keys/${await newKey()}/revoke`, method: 'POST' }),
  listAccessGroups: async () => admin({ path: 'access-groups' }),
  getAccessGroup: async () => admin({ path: 'access-groups/5001' }),
};

describe('knowledge base contract', () => {
  const ops = spec.operations();

  it('the table calls every operation of the spec, and only those', () => {
    expect(ops.map((o) => o.operationId).sort()).toEqual(Object.keys(CALLS).sort());
  });

  for (const op of ops.filter((o) => o.operationId !== 'generateStream')) {
    it(`${op.method} ${op.path} (${op.operationId}) answers per the spec`, async () => {
      const { path, ...options } = await CALLS[op.operationId!]!();
      const r = await call(path, { method: op.method, ...options });
      expect(r.status, r.text).toBe(200);
      const schema = spec.responseSchema(op.operation)!;
      expect(spec.validate(r.body, schema), JSON.stringify(r.body).slice(0, 400)).toEqual([]);
    });
  }

  it('POST /query/stream (generateStream): start and done are QueryRecords, chunks {text}; error an ErrorBody', async () => {
    const ok = await readStream(running.kbUrl, { query: question() });
    expect(ok.events.length).toBeGreaterThan(2);
    for (const e of ok.events) {
      if (e.event === 'chunk') expect(Object.keys(e.data)).toEqual(['text']);
      else expect(spec.validateNamed(e.data, 'QueryRecord')).toEqual([]);
    }
    const failed = await readStream(running.kbUrl, { query: KB_UNANSWERABLE_QUESTION });
    expect(spec.validateNamed(failed.events.at(-1)!.data, 'ErrorBody')).toEqual([]);
  });

  it('errors answer ErrorBody: 400, 401, 403, 404', async () => {
    const errors = [
      await call('retrieve', { body: {} }),
      await call('info', { key: 'nope' }),
      await call('projects'),
      await call('sources/1'),
    ];
    expect(errors.map((e) => e.status)).toEqual([400, 401, 403, 404]);
    for (const e of errors) expect(spec.validateNamed(e.body, 'ErrorBody')).toEqual([]);
  });
});
