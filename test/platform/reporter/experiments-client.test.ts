// The experiments client against the emulator: create, list, count per experiment and per branch, stop,
// delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countJoined } from '../../../src/emulator/routes/experiments.js';
import {
  countExperimentSessions,
  createExperiment,
  deleteExperiment,
  readExperiments,
  stopExperiment,
} from '../../../src/platform/reporter/experiments.js';
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

  it('creates, stops and deletes', async () => {
    const created = await createExperiment(c.v1, {
      key: 'client-test',
      description: 'A/B',
      branches: [{ key: 'a', description: 'first' }, { key: 'b' }],
    });
    expect(created).toMatchObject({ key: 'client-test', status: 'CREATED' });
    expect(c.p.state.experiments.get('client-test')).toMatchObject({ status: 'CREATED' });
    await stopExperiment(c.legacy, 'client-test');
    expect(c.p.state.experiments.get('client-test')!.status).toBe('STOPPED');
    await deleteExperiment(c.v1, 'client-test');
    expect(c.p.state.experiments.has('client-test')).toBe(false);
    const gone = await deleteExperiment(c.v1, 'client-test').catch((e: unknown) => e);
    expect(gone).toMatchObject({ code: 'reporter.not_found' });
  });
});
