// The rest of the client against the emulator: the projects a token reads; and an answer of the wrong
// shape becoming a typed error that names the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EtlError } from '../../../src/errors.js';
import { parseAnswer } from '../../../src/platform/reporter/parse-answer.js';
import { countProjectSessions } from '../../../src/platform/reporter/projects.js';
import { type ClientHarness, createClientHarness } from './client-harness.js';

let c: ClientHarness;
beforeAll(async () => {
  c = await createClientHarness();
});
afterAll(() => c.close());

describe('projects and answers of the wrong shape', () => {
  it('counts the sessions of every project the token reads', async () => {
    const [, hi] = c.p.skeleton.sessionsStartingIn(Number.NEGATIVE_INFINITY, c.now());
    expect(await countProjectSessions(c.v1)).toEqual([{ projectShortName: 'shop-bot', amount: hi }]);
    expect(await countProjectSessions(c.legacy)).toEqual([{ projectShortName: 'shop-bot', amount: hi }]);
  });

  it('turns an answer of the wrong shape into a typed error naming the field', () => {
    const error = (() => {
      try {
        return parseAnswer('x/op', z.object({ amount: z.number() }), { amount: 'many' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(EtlError);
    expect(error).toMatchObject({ code: 'reporter.invalid_answer' });
    expect((error as Error).message).toMatch(/x\/op: .*amount/);
  });
});
