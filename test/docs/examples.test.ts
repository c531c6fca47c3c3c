// The configuration files of examples/ are ready to copy: each loads with the real configuration loader (valid
// JSON, only known keys, every project distinct), and says what the README says it does.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('examples/', () => {
  it('every JSON file loads with the configuration loader', () => {
    const files = readdirSync('examples').filter((f) => f.endsWith('.json'));
    expect(files).toContain('two-projects.json');
    for (const file of files)
      expect(() => loadConfig({ REPORTER_CONFIG: join('examples', file) }), file).not.toThrow();
  });

  it('two-projects.json lists two projects of one unified token, and a schedule', () => {
    const config = loadConfig({ REPORTER_CONFIG: 'examples/two-projects.json' });
    expect(config.projects.map((p) => [p.project, p.api, p.baseUrl])).toEqual([
      ['shop-bot', 'v1', 'https://app.jaicp.com'],
      ['support-bot', 'v1', 'https://app.jaicp.com'],
    ]);
    expect(config.timeZone).toBe('Europe/Moscow');
    expect(config.jobs).toEqual(['sync', 'daily-report', 'retention']);
  });
});
