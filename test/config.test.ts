// Configuration: defaults, and errors that name the setting at fault.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('reads the environment with sensible defaults', () => {
    const c = loadConfig({ REPORTER_TOKEN: 'abc' });
    expect(c.projects).toEqual([
      { baseUrl: 'https://app.jaicp.com', token: 'abc', api: 'v1', durationUnit: 'ms' },
    ]);
    expect(c.warehousePath).toMatch(/data\/warehouse\.duckdb$/);
    expect(c.lookbackMs).toBe(48 * 3_600_000);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('names the missing or malformed setting', () => {
    expect(() => loadConfig({})).toThrow(/REPORTER_TOKEN: is required/);
    expect(() => loadConfig({ REPORTER_TOKEN: 'x', REPORTER_API: 'v2' })).toThrow(/REPORTER_API/);
    expect(() => loadConfig({ REPORTER_TOKEN: 'x', REPORTER_BASE_URL: 'app.jaicp.com' })).toThrow(
      /REPORTER_BASE_URL/,
    );
    expect(() => loadConfig({ REPORTER_TOKEN: 'x', REPORTER_CONCURRENCY: 'many' })).toThrow(
      /REPORTER_CONCURRENCY: expected a whole number/,
    );
    expect(() => loadConfig({ REPORTER_TOKEN: 'x', REPORTER_LOOKBACK_HOURS: '-1' })).toThrow(
      /REPORTER_LOOKBACK_HOURS/,
    );
  });

  it('reads several projects from REPORTER_CONFIG and names the bad key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const good = join(dir, 'good.json');
    writeFileSync(
      good,
      JSON.stringify({
        projects: [
          { token: 't1', project: 'a' },
          { token: 't2', project: 'b', api: 'legacy' },
        ],
      }),
    );
    expect(loadConfig({ REPORTER_CONFIG: good }).projects.map((p) => `${p.project}:${p.api}`)).toEqual([
      'a:v1',
      'b:legacy',
    ]);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ projects: [{ token: 't1' }, { token: '', baseUrl: 'nope' }] }));
    expect(() => loadConfig({ REPORTER_CONFIG: bad })).toThrow(/projects\[1\]\.(token|baseUrl)/);
    expect(() => loadConfig({ REPORTER_CONFIG: join(dir, 'missing.json') })).toThrow(
      /REPORTER_CONFIG: cannot read/,
    );
  });
});
