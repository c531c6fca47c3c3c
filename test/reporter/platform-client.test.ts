// The rest of the client against the emulator: the filters of a section, checkbox options with frequencies,
// numeric bounds, saved filter sets and the projects a token reads; and an answer of the wrong
// shape becoming a typed error that names the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EtlError } from '../../src/errors.js';
import {
  createFilterSetId,
  readAvailableFilters,
  readFilterOptions,
  readIntervalFilterOptions,
  readUserFilterSet,
} from '../../src/reporter/filter-catalogue.js';
import type { ReporterFilter } from '../../src/reporter/filters.js';
import { parseAnswer } from '../../src/reporter/parse-answer.js';
import { countProjectSessions } from '../../src/reporter/projects.js';
import { type ClientHarness, createClientHarness } from './client-harness.js';

let c: ClientHarness;
beforeAll(async () => {
  c = await createClientHarness();
});
afterAll(() => c.close());

const DAY = 86_400_000;
const lastDay = (): ReporterFilter => ({
  key: 'SESSION_START_TIME',
  type: 'DATE_TIME_RANGE',
  from: new Date(c.now() - DAY).toISOString(),
  to: new Date(c.now()).toISOString(),
});
/** Session indexes that started in the last day (the emulator's truth of lastDay()). */
function lastDaySessions(): number[] {
  const [lo, hi] = c.p.skeleton.sessionsStartingIn(c.now() - DAY, c.now());
  return Array.from({ length: hi - lo }, (_, n) => lo + n);
}

describe('filters and filter sets', () => {
  it('lists the filters of each section', async () => {
    const sessions = await readAvailableFilters(c.v1, 'SESSIONS');
    expect(sessions.map((f) => f.key)).toEqual(
      expect.arrayContaining(['SESSION_START_TIME', 'SESSION_LABELS']),
    );
    expect(sessions.find((f) => f.key === 'SESSION_LABELS')?.type).toBe('CHECKBOX');
    const clients = await readAvailableFilters(c.legacy, 'CLIENTS');
    expect(clients.map((f) => f.key)).toContain('CLIENT_ID_OR_NAME');
    expect(clients.map((f) => f.key)).not.toContain('SESSION_LABELS');
  });

  it('reads checkbox options with frequencies over the sessions of the other filters', async () => {
    const options = await readFilterOptions(c.v1, {
      analyticsSection: 'SESSIONS',
      filterKey: 'CHANNEL_TYPE',
      filters: [lastDay()],
    });
    const truth = new Map<string, number>();
    for (const i of lastDaySessions()) truth.set(c.p.channelOf(i), (truth.get(c.p.channelOf(i)) ?? 0) + 1);
    expect(new Map(options.map((o) => [o.value, o.frequency]))).toEqual(truth);
    const labels = await readFilterOptions(c.legacy, {
      analyticsSection: 'SESSIONS',
      filterKey: 'SESSION_LABELS',
      filters: [lastDay()],
      size: 2,
    });
    expect(labels).toHaveLength(2);
    const spam = lastDaySessions().filter((i) => c.p.sessionLabelIds(i, c.now()).includes(1)).length;
    expect(labels.find((o) => o.value === '1')?.frequency).toBe(spam);
  });

  it('reads the bounds of MESSAGE_COUNT', async () => {
    const bounds = await readIntervalFilterOptions(c.v1, {
      analyticsSection: 'SESSIONS',
      filterKey: 'MESSAGE_COUNT',
      filters: [lastDay()],
    });
    const counts = lastDaySessions().map((i) => c.p.skeleton.visibleMessageCount(i, c.now()));
    expect(bounds).toEqual({ minValue: Math.min(...counts), maxValue: Math.max(...counts) });
  });

  it('saves a filter set and reads it back', async () => {
    const filters = [
      lastDay(),
      { key: 'CHANNEL_TYPE', type: 'CHECKBOX', comparisonType: 'CONTAINS', options: ['vk'] },
    ];
    const id = await createFilterSetId(c.v1, { filters, intervalType: 'DAY', step: 1 });
    expect(c.p.state.filterSets.has(id)).toBe(true);
    expect(await readUserFilterSet(c.legacy, id)).toEqual({
      filterSetId: id,
      filters,
      intervalType: 'DAY',
      step: 1,
    });
    const missing = await readUserFilterSet(c.v1, 'no-such-set').catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: 'reporter.not_found' });
    const bad = await createFilterSetId(c.v1, { filters: [{ key: 'NO_SUCH', type: 'TEXT' }] }).catch(
      (e: unknown) => e,
    );
    expect((bad as Error).message).toMatch(/filters\[0\]\.key/);
  });
});

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
