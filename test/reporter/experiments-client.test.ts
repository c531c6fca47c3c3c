// The experiments client against the emulator: create, list, join (the branch comes back, CREATED becomes
// RUNNING), count per experiment and per branch, stop (a stopped experiment refuses joins), delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countJoined } from '../../src/emulator/routes/experiments.js';
import { EtlError } from '../../src/errors.js';
import {
  countExperimentSessions,
  createExperiment,
  deleteExperiment,
  joinExperiment,
  readExperiments,
  stopExperiment,
} from '../../src/reporter/experiments.js';
import { type ClientHarness, createClientHarness } from './client-harness.js';

let c: ClientHarness;
beforeAll(async () => {
  c = await createClientHarness();
});
afterAll(() => c.close());

describe('scenario experiments', () => {
  it('lists the experiments and counts their sessions as the emulator does', async () => {
    const list = await readExperiments(c.v1);
    expect(list.map((e) => [e.key, e.status])).toEqual(
      [...c.p.state.experiments.values()].map((e) => [e.key, e.status]),
    );
    const counts = await countExperimentSessions(c.legacy);
    for (const { key, count } of counts) {
      const truth = [...countJoined(c.p, c.p.state.experiments.get(key)!, c.now()).values()];
      expect(count, key).toBe(truth.reduce((a, b) => a + b, 0));
    }
    const perBranch = await countExperimentSessions(c.v1, 'menu-layout');
    expect(perBranch.map((b) => b.key)).toEqual(['buttons', 'text', 'mixed']);
    expect(Object.fromEntries(perBranch.map((b) => [b.key, b.count]))).toEqual(
      Object.fromEntries(countJoined(c.p, c.p.state.experiments.get('menu-layout')!, c.now())),
    );
  });

  it('creates, joins, counts, stops and deletes', async () => {
    const created = await createExperiment(c.v1, {
      key: 'client-test',
      description: 'A/B',
      branches: [{ key: 'a', description: 'first' }, { key: 'b' }],
    });
    expect(created).toMatchObject({ key: 'client-test', status: 'CREATED' });
    expect(c.p.state.experiments.get('client-test')).toMatchObject({ status: 'CREATED' });
    const [, hi] = c.p.skeleton.sessionsStartingIn(Number.NEGATIVE_INFINITY, c.now());
    const joined: string[] = [];
    for (let i = hi - 1; i > hi - 6; i--) {
      const branch = await joinExperiment(c.v1, {
        experimentKey: 'client-test',
        sessionId: c.p.sessionId(i),
        botId: c.p.botIdOf(i),
      });
      expect(['a', 'b']).toContain(branch);
      expect(c.p.state.experiments.get('client-test')!.joins.get(i)).toBe(branch);
      joined.push(branch);
    }
    expect(c.p.state.experiments.get('client-test')!.status).toBe('RUNNING');
    const counts = await countExperimentSessions(c.v1, 'client-test');
    expect(counts.reduce((sum, b) => sum + b.count, 0)).toBe(5);
    expect(counts.find((b) => b.key === 'a')!.count).toBe(joined.filter((b) => b === 'a').length);

    await stopExperiment(c.legacy, 'client-test');
    expect(c.p.state.experiments.get('client-test')!.status).toBe('STOPPED');
    const refused = await joinExperiment(c.v1, {
      experimentKey: 'client-test',
      sessionId: c.p.sessionId(hi - 10),
      botId: c.p.botIdOf(hi - 10),
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EtlError);
    expect((refused as Error).message).toMatch(/experimentKey: experiment client-test is stopped/);

    await deleteExperiment(c.v1, 'client-test');
    expect(c.p.state.experiments.has('client-test')).toBe(false);
    const gone = await deleteExperiment(c.v1, 'client-test').catch((e: unknown) => e);
    expect(gone).toMatchObject({ code: 'reporter.not_found' });
  });
});
