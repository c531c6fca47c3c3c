// The knowledge base's keys and errors: 401 without or with an unknown key, 403 for the wrong kind of key
// or another project, an expired key 401 and a revoked one 403 (a key expiring while the clock advances
// stops working then), error bodies `{code, description}`, 400 and 404 naming what is wrong. Expectations
// come from the emulator's truth (kbKeys), not from answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kbApiKeysTruth, kbKeys } from '../../src/emulator/kb/kb-truth.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { makeKbCaller } from '../helpers/kb-client.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeKbCaller>;
let keys: ReturnType<typeof kbKeys>;

beforeAll(async () => {
  running = await startEmulator({ sessions: 50, days: 1, now: TEST_NOW });
  call = makeKbCaller(running.kbUrl);
  keys = kbKeys(running.emulator);
});
afterAll(() => running.close());

function expectError(r: { status: number; body: any }, status: number, code: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(Object.keys(r.body).sort()).toEqual(['code', 'description']);
  expect(r.body.code).toBe(code);
  expect(r.body.description.length).toBeGreaterThan(0);
}

describe('knowledge base keys', () => {
  it('the base URL is {url}/kb and the project key reaches its project', async () => {
    expect(running.kbUrl).toBe(`${running.url}/kb`);
    const r = await call('info');
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(keys.projectId);
  });

  it('401 without a key or with an unknown one', async () => {
    expectError(await call('info', { key: null }), 401, 'kb.unauthorized.missing_key');
    expectError(await call('info', { key: 'not-a-key' }), 401, 'kb.unauthorized.invalid_key');
    // a Reporter token is not a key of this service
    expectError(await call('sources', { key: 'emulator-v1-token' }), 401, 'kb.unauthorized.invalid_key');
  });

  it('403 for the wrong kind of key', async () => {
    expectError(await call('projects'), 403, 'kb.forbidden.key_type');
    expectError(await call('sources', { key: keys.adminKey }), 403, 'kb.forbidden.key_type');
    expectError(await call('info', { key: keys.adminKey }), 403, 'kb.forbidden.key_type');
  });

  it('settings: either key, a project key only for its own project', async () => {
    expect((await call(`projects/${keys.projectId}/settings`)).status).toBe(200);
    expect((await call(`projects/${keys.otherProjectId}/settings`, { key: keys.adminKey })).status).toBe(200);
    expectError(await call(`projects/${keys.otherProjectId}/settings`), 403, 'kb.forbidden.project');
  });

  it('an expired key is 401, a revoked key 403', async () => {
    expectError(await call('info', { key: keys.expiredKey }), 401, 'kb.unauthorized.key_expired');
    expectError(await call('info', { key: keys.revokedKey }), 403, 'kb.forbidden.key_revoked');
  });

  it('a key expiring soon works until the clock passes its expiry, then 401', async () => {
    const emulator = running.emulator;
    const expiresAt = Date.parse(keys.expiringSoonAt);
    expect(emulator.now()).toBeLessThan(expiresAt);
    expect((await call('info', { key: keys.expiringSoonKey })).status).toBe(200);
    const listed = await call(`projects/${keys.projectId}/api-keys?onlyActive=true`, { key: keys.adminKey });
    expect(listed.body.content.map((k: any) => k.name)).toContain('ci-pipeline');
    emulator.clock.set(expiresAt);
    expectError(await call('info', { key: keys.expiringSoonKey }), 401, 'kb.unauthorized.key_expired');
    const truth = kbApiKeysTruth(emulator).find((k) => k.name === 'ci-pipeline')!;
    expect(truth.status).toBe('EXPIRED');
    const after = await call(`projects/${keys.projectId}/api-keys?onlyActive=true`, { key: keys.adminKey });
    expect(after.body.content.map((k: any) => k.name)).not.toContain('ci-pipeline');
  });

  it('a use moves the key lastUsedAt to the clock', async () => {
    const now = running.emulator.now();
    await call('info');
    const list = await call(`projects/${keys.projectId}/api-keys`, { key: keys.adminKey });
    const own = list.body.content.find((k: any) => k.name === 'emulator default');
    expect(own.lastUsedAt).toBe(new Date(now).toISOString());
    expect(own.key).toBeUndefined();
  });

  it('a revoked key stops working at once; a created key works and is answered once', async () => {
    const created = await call(`projects/${keys.projectId}/api-keys`, {
      key: keys.adminKey,
      body: { name: 'test key' },
    });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('ACTIVE');
    expect(created.body.expiredAt).toBeUndefined();
    const value = created.body.key as string;
    expect((await call('info', { key: value })).status).toBe(200);
    const revoked = await call(`projects/${keys.projectId}/api-keys/${created.body.id}/revoke`, {
      key: keys.adminKey,
      method: 'POST',
    });
    expect(revoked.body.status).toBe('REVOKED');
    expectError(await call('info', { key: value }), 403, 'kb.forbidden.key_revoked');
  });

  it('400 and 404 name what is wrong', async () => {
    expectError(await call('sources?sourceStatus=DONE'), 400, 'kb.bad_request.invalid_parameter');
    expectError(await call('sources?createDateFrom=01.11.2026'), 400, 'kb.bad_request.invalid_parameter');
    expectError(await call('sources/99999999'), 404, 'kb.not_found.source');
    expectError(await call('sources/abc'), 400, 'kb.bad_request.invalid_parameter');
    expectError(await call('no/such/operation'), 404, 'kb.not_found.path');
    expectError(await call('info', { method: 'DELETE' }), 404, 'kb.not_found.path');
    expectError(await call('retrieve', { body: { history: [] } }), 400, 'kb.bad_request.invalid_parameter');
    expectError(await call('query/123', {}), 404, 'kb.not_found.query');
    expectError(await call('query/123?waitTimeSeconds=31'), 400, 'kb.bad_request.invalid_parameter');
    expectError(await call('segments?pageSize=101'), 400, 'kb.bad_request.invalid_parameter');
    const malformed = await fetch(`${running.kbUrl}/api/knowledge-hub/retrieve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.projectKey}`, 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toBe('kb.bad_request.malformed_json');
  });

  it('a deleted project: its keys stop working, its id is 404', async () => {
    const created = await call('projects', { key: keys.adminKey, body: { name: 'short-lived' } });
    expect(created.body.status).toBe('CREATED');
    const id = created.body.id as number;
    const key = await call(`projects/${id}/api-keys`, { key: keys.adminKey, body: { name: 'k' } });
    expect((await call('info', { key: key.body.key })).body.id).toBe(id);
    const deleted = await call(`projects/${id}`, { key: keys.adminKey, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(Object.keys(deleted.body).sort()).toEqual(['code', 'description']);
    expectError(await call('info', { key: key.body.key }), 401, 'kb.unauthorized.invalid_key');
    expectError(await call(`projects/${id}/settings`, { key: keys.adminKey }), 404, 'kb.not_found.project');
  });
});
