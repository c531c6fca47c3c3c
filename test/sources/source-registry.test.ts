// The registries of sources and destinations against what they feed: the scheduler's job list holds every
// job a unit offers (adapted, under its id, with its schedule) beside the core's, each id once; every error
// code a unit claims is in the catalogue and claimed by one unit only; unit ids are unique.
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/registry.js';
import { DESTINATIONS } from '../../src/destinations/registry.js';
import { ERROR_CODES } from '../../src/error-codes.js';
import { SOURCES } from '../../src/sources/registry.js';

const UNITS = [...SOURCES, ...DESTINATIONS];

describe('the registries', () => {
  it('give the scheduler every job a unit offers, and the core jobs, each id once', () => {
    const offered = UNITS.flatMap((u) => u.jobs);
    // the jobs the units offered when the registry came; a later source adds its own
    expect(offered.map((j) => j.id)).toEqual(
      expect.arrayContaining(['chatapi-events', 'export-parquet', 'kb-sync']),
    );
    for (const spec of offered) {
      const job = JOBS.find((j) => j.id === spec.id);
      expect(job, spec.id).toBeDefined();
      expect(job?.description).toBe(spec.describe);
      expect(job?.defaultSchedule).toBe(spec.defaultSchedule);
      expect(job?.needsApi).toBe(spec.needsApi);
      expect(job?.recordsOwnRuns).toBe(spec.recordsOwnRuns);
    }
    const ids = JOBS.map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    // the core's jobs, still in jobs/ (sync first)
    expect(ids[0]).toBe('sync');
    for (const core of ['daily-report', 'platform-daily', 'retention']) expect(ids).toContain(core);
  });

  it('claim error codes of the catalogue, each code by one unit at most', () => {
    const claimed = UNITS.flatMap((u) => u.errorCodes);
    for (const code of claimed) expect(Object.keys(ERROR_CODES)).toContain(code);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed).toContain('kb.auth');
    expect(claimed).toContain('chatapi.auth');
  });

  it('name each unit once', () => {
    const ids = UNITS.map((u) => u.id);
    expect(new Set(ids).size).toBe(ids.length);
    // the first five, in order (the table list keeps their order); a later source comes after them
    expect(SOURCES.map((s) => s.id).slice(0, 5)).toEqual([
      'reporter',
      'chatapi',
      'webhooks',
      'prompter',
      'kb',
    ]);
  });
});
