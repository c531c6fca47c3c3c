// Scenario experiments of the emulator (scenario-exeperiments, sic): create, list, join, stop, delete and
// count-sessions, checked against the ground truth and against the exp_<key> keys of sessionData.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_READONLY_TOKEN } from '../../src/emulator/emulator.js';
import type { ProjectData } from '../../src/emulator/project-data.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { makeCaller, pageAll, TEST_NOW } from '../helpers/emulator-client.js';
import { loadSpec } from '../helpers/openapi-validator.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
let p: ProjectData;
const spec = loadSpec({ dateTime: 'strict' });
const P = 'projectShortName=shop-bot';
const EXP = 'scenario-exeperiments';

beforeAll(async () => {
  running = await startEmulator({ port: 0, sessions: 300, days: 2, now: TEST_NOW });
  call = makeCaller(running.url);
  p = running.emulator.project('shop-bot');
});
afterAll(() => running.close());

const truth = () => groundTruth(p, { now: running.emulator.now(), ids: false }).experiments;
const total = (counts: Record<string, number> | undefined) =>
  Object.values(counts ?? {}).reduce((a, b) => a + b, 0);

function expectParameter(r: { status: number; body: any }, status: number, parameter: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.args?.parameter).toBe(parameter);
  expect(r.body.message).toContain(parameter);
}

/** Every session with its sessionData (v1 only), via sessions/filter. */
async function allSessionData(): Promise<any[]> {
  return (await pageAll(call, 'sessions/filter', 'sessions', {}, 500, '&needToReturnSessionData=true')).rows;
}

async function sessionData(sessionId: string): Promise<Record<string, string>> {
  const r = await call('sessions/filter?needToReturnSessionData=true', {
    body: {
      filters: [
        {
          key: 'SESSION_ID',
          type: 'TEXT',
          comparisonType: 'EQUALS',
          values: [sessionId],
          isCaseSensitive: false,
        },
      ],
    },
  });
  expect(r.body.sessions).toHaveLength(1);
  return r.body.sessions[0].sessionData;
}

describe('scenario experiments', () => {
  it('needs projectShortName on v1, not on the legacy generation', async () => {
    expectParameter(await call(EXP), 400, 'projectShortName');
    expectParameter(await call(`${EXP}/count-sessions`), 400, 'projectShortName');
    const legacy = await call(EXP, { generation: 'legacy' });
    expect(legacy.status).toBe(200);
    const v1 = await call(`${EXP}?${P}`);
    expect(v1.body).toEqual(legacy.body);
    expect(v1.body.map((e: any) => [e.key, e.status])).toEqual([
      ['greeting-test', 'RUNNING'],
      ['menu-layout', 'STOPPED'],
    ]);
    for (const e of v1.body) expect(spec.validateNamed(e, 'ScenarioExperimentDto')).toEqual([]);
  });

  it('counts the seeded joins as the ground truth and sessionData do', async () => {
    const t = truth();
    const all = await call(`${EXP}/count-sessions?${P}`);
    expect(all.status).toBe(200);
    for (const row of all.body)
      expect(spec.validateNamed(row, 'ScenarioExperimentJoinedSessionsDto')).toEqual([]);
    expect(all.body).toEqual([
      { key: 'greeting-test', count: total(t['greeting-test']) },
      { key: 'menu-layout', count: total(t['menu-layout']) },
    ]);
    expect(all.body.every((r: any) => r.count > 0)).toBe(true);

    const branches = await call(`${EXP}/count-sessions?experimentKey=menu-layout`, { generation: 'legacy' });
    expect(branches.body).toEqual(
      ['buttons', 'text', 'mixed'].map((key) => ({ key, count: t['menu-layout']?.[key] ?? 0 })),
    );

    const rows = await allSessionData();
    for (const key of ['greeting-test', 'menu-layout']) {
      expect(rows.filter((s) => s.sessionData[`exp_${key}`] !== undefined).length).toBe(total(t[key]));
    }
  });

  it('creates an experiment, joins sessions deterministically, stops and deletes it', async () => {
    const body = {
      key: 'cta-color',
      description: 'Цвет кнопки',
      branches: [{ key: 'red', description: 'Красная' }, { key: 'green' }],
    };
    const created = await call(`${EXP}?${P}`, { body });
    expect(created.status).toBe(200);
    expect(spec.validateNamed(created.body, 'ScenarioExperimentDto')).toEqual([]);
    expect(created.body).toEqual({ ...body, status: 'CREATED' });
    expect((await call(`${EXP}/count-sessions?experimentKey=cta-color&${P}`)).body).toEqual([
      { key: 'red', count: 0 },
      { key: 'green', count: 0 },
    ]);

    const sessions = (await call('sessions/filter?size=12', { body: {} })).body.sessions;
    const branches: string[] = [];
    for (const s of sessions) {
      const r = await call(
        `${EXP}/join?sessionId=${s.sessionId}&experimentKey=cta-color&botId=${s.botId}&${P}`,
        { method: 'POST' },
      );
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/application\/json/);
      expect(['red', 'green']).toContain(r.body);
      branches.push(r.body);
    }
    expect(new Set(branches).size).toBe(2);
    const list = (await call(`${EXP}?${P}`)).body;
    expect(list.find((e: any) => e.key === 'cta-color').status).toBe('RUNNING');

    // joining twice (either generation) gives the same branch; sessionData carries it
    const again = await call(
      `${EXP}/join?sessionId=${sessions[0].sessionId}&experimentKey=cta-color&botId=${sessions[0].botId}`,
      {
        method: 'POST',
        generation: 'legacy',
      },
    );
    expect(again.body).toBe(branches[0]);
    expect((await sessionData(sessions[3].sessionId))['exp_cta-color']).toBe(branches[3]);

    const t = truth()['cta-color'];
    expect(total(t)).toBe(sessions.length);
    const counted = (await call(`${EXP}/count-sessions?experimentKey=cta-color&${P}`)).body;
    expect(counted).toEqual([
      { key: 'red', count: branches.filter((b) => b === 'red').length },
      { key: 'green', count: branches.filter((b) => b === 'green').length },
    ]);
    expect(counted).toEqual(['red', 'green'].map((key) => ({ key, count: t?.[key] ?? 0 })));
    const rows = await allSessionData();
    expect(rows.filter((s) => s.sessionData['exp_cta-color'] !== undefined).length).toBe(sessions.length);

    expect((await call(`${EXP}/stop?experimentKey=cta-color&${P}`, { method: 'POST' })).status).toBe(200);
    expect((await call(`${EXP}?${P}`)).body.find((e: any) => e.key === 'cta-color').status).toBe('STOPPED');
    const late = sessions[sessions.length - 1];
    expectParameter(
      await call(`${EXP}/join?sessionId=${late.sessionId}&experimentKey=cta-color&botId=${late.botId}&${P}`, {
        method: 'POST',
      }),
      400,
      'experimentKey',
    );
    expect(total(truth()['cta-color'])).toBe(sessions.length);

    expect((await call(`${EXP}?experimentKey=cta-color&${P}`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(`${EXP}?${P}`)).body.map((e: any) => e.key)).not.toContain('cta-color');
    expect(truth()['cta-color']).toBeUndefined();
    expect((await call(`${EXP}/count-sessions?${P}`)).body.map((r: any) => r.key)).toEqual([
      'greeting-test',
      'menu-layout',
    ]);
    expect((await sessionData(sessions[3].sessionId))['exp_cta-color']).toBeUndefined();
    expectParameter(
      await call(`${EXP}?experimentKey=cta-color&${P}`, { method: 'DELETE' }),
      404,
      'experimentKey',
    );
  });

  it('rejects bad experiments and bad joins, naming the field or parameter', async () => {
    const post = (body: unknown) => call(`${EXP}?${P}`, { body });
    expectParameter(await post({ key: 'greeting-test', branches: [{ key: 'a' }] }), 400, 'key');
    expectParameter(await post({ key: 'x', branches: [] }), 400, 'branches');
    expectParameter(await post({ key: 'x' }), 400, 'branches');
    expectParameter(await post({ key: 'x', branches: 'a,b' }), 400, 'branches');
    expectParameter(await post({ key: 'x', branches: [{ key: 'a' }, { key: 'a' }] }), 400, 'branches[1].key');
    expectParameter(await post({ key: 'x', branches: [{ description: 'no key' }] }), 400, 'branches[0].key');
    expectParameter(await post({ key: 7, branches: [{ key: 'a' }] }), 400, 'key');
    expectParameter(await post({ key: 'x', description: 1, branches: [{ key: 'a' }] }), 400, 'description');
    expect(
      (
        await call(`${EXP}?${P}`, {
          body: { key: 'ro', branches: [{ key: 'a' }] },
          token: DEFAULT_READONLY_TOKEN,
        })
      ).status,
    ).toBe(403);
    expect((await call(`${EXP}?${P}`)).body.map((e: any) => e.key)).toEqual(['greeting-test', 'menu-layout']);

    const s = (await call('sessions/filter?size=1', { body: {} })).body.sessions[0];
    const join = (query: string) => call(`${EXP}/join?${query}&${P}`, { method: 'POST' });
    expectParameter(
      await join(`sessionId=${s.sessionId}&experimentKey=menu-layout&botId=${s.botId}`),
      400,
      'experimentKey',
    );
    expectParameter(
      await join(`sessionId=${s.sessionId}&experimentKey=nope&botId=${s.botId}`),
      404,
      'experimentKey',
    );
    expectParameter(
      await join(`sessionId=nope&experimentKey=greeting-test&botId=${s.botId}`),
      404,
      'sessionId',
    );
    expectParameter(
      await join(`sessionId=${s.sessionId}&experimentKey=greeting-test&botId=other-bot`),
      404,
      'botId',
    );
    expectParameter(await join(`experimentKey=greeting-test&botId=${s.botId}`), 400, 'sessionId');
    expectParameter(await join(`sessionId=${s.sessionId}&experimentKey=greeting-test`), 400, 'botId');
    expect(
      (
        await call(`${EXP}/join?sessionId=${s.sessionId}&experimentKey=greeting-test&botId=${s.botId}&${P}`, {
          method: 'POST',
          token: DEFAULT_READONLY_TOKEN,
        })
      ).status,
    ).toBe(403);
    expectParameter(
      await call(`${EXP}/stop?experimentKey=nope&${P}`, { method: 'POST' }),
      404,
      'experimentKey',
    );
    expectParameter(await call(`${EXP}/stop?${P}`, { method: 'POST' }), 400, 'experimentKey');
    expectParameter(await call(`${EXP}/count-sessions?experimentKey=nope&${P}`), 404, 'experimentKey');
  });

  it('a seeded experiment keeps its joins after stop and takes no new sessions as time passes', async () => {
    const s = (await call('sessions/filter?size=1', { body: {} })).body.sessions[0];
    const joined = await call(
      `${EXP}/join?sessionId=${s.sessionId}&experimentKey=greeting-test&botId=${s.botId}&${P}`,
      { method: 'POST' },
    );
    expect(['short', 'long']).toContain(joined.body);
    expect((await sessionData(s.sessionId))['exp_greeting-test']).toBe(joined.body);

    const before = total(truth()['greeting-test']);
    expect(
      (await call(`${EXP}/stop?experimentKey=greeting-test`, { method: 'POST', generation: 'legacy' }))
        .status,
    ).toBe(200);
    expect((await call(`${EXP}/count-sessions?${P}`)).body[0]).toEqual({
      key: 'greeting-test',
      count: before,
    });

    const moved = await fetch(`${running.url}/__emulator/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMs: 6 * 3_600_000 }),
    });
    expect(moved.status).toBe(200);
    const t = truth();
    expect(total(t['greeting-test'])).toBe(before);
    const counts = (await call(`${EXP}/count-sessions?experimentKey=greeting-test&${P}`)).body;
    expect(counts).toEqual(['short', 'long'].map((key) => ({ key, count: t['greeting-test']?.[key] ?? 0 })));
    const rows = await allSessionData();
    expect(rows.filter((r) => r.sessionData['exp_greeting-test'] !== undefined).length).toBe(before);
    expect(rows.some((r) => Date.parse(r.startTime) > TEST_NOW)).toBe(true);
  });
});
