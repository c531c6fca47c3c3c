// The Pushgate settings: REPORTER_PUSHGATE_URL is a pushback URL, refused without repeating it (it holds the
// secret); alert rules (REPORTER_ALERTS or "alerts" in the REPORTER_CONFIG file) are checked rule by rule.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';

const base = { REPORTER_TOKEN: 'test-token-t', REPORTER_DATA_DIR: '/tmp/x' };
const message = (env: Record<string, string>): string => {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('Pushgate settings', () => {
  it('REPORTER_PUSHGATE_URL: the base and the pushback id; a bad one is refused without its value', () => {
    const config = loadConfig({
      ...base,
      REPORTER_PUSHGATE_URL: 'https://bot.example.com/pushgate/push_secretXYZ123',
    });
    expect(config.pushgate).toEqual({
      notify: { baseUrl: 'https://bot.example.com', pushbackId: 'secretXYZ123' },
      baseUrl: 'https://bot.example.com',
      // messages about the address name the setting it came from (its base is no secret)
      baseUrlSetting: 'REPORTER_PUSHGATE_URL',
    });
    const bad = message({ REPORTER_PUSHGATE_URL: 'https://bot.example.com/push/secretXYZ123' });
    expect(bad).toMatch(/^bad configuration: REPORTER_PUSHGATE_URL: expected a pushback URL/);
    expect(bad).not.toContain('secretXYZ123');
  });

  it('REPORTER_ALERTS: rules with defaults; each mistake named by its rule and key', () => {
    const config = loadConfig({
      ...base,
      REPORTER_ALERTS:
        '[{"metric":"deliveryRate","below":0.9},{"name":"t","metric":"transferShare","above":0.2,"periodHours":6}]',
    });
    expect(config.alerts).toEqual([
      { name: 'deliveryRate-below-0.9', metric: 'deliveryRate', below: 0.9, periodHours: 24 },
      { name: 't', metric: 'transferShare', above: 0.2, periodHours: 6 },
    ]);
    expect(message({ REPORTER_ALERTS: 'not json' })).toMatch(/REPORTER_ALERTS: expected a JSON array/);
    expect(message({ REPORTER_ALERTS: '[{"metric":"deliveryRate","below":1,"above":2}]' })).toMatch(
      /REPORTER_ALERTS: .*exactly one of "below" and "above"/,
    );
    expect(message({ REPORTER_ALERTS: '[{"metric":"speed","below":1}]' })).toMatch(/REPORTER_ALERTS/);
  });

  it('"alerts" in the REPORTER_CONFIG file; a misspelled key is named with the known ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-alerts-'));
    try {
      const file = join(dir, 'config.json');
      const projects = [{ baseUrl: 'https://app.example.com', token: 'test-token-tok', project: 'p' }];
      writeFileSync(
        file,
        JSON.stringify({ projects, alerts: [{ metric: 'unrecognisedShare', above: 0.15 }] }),
      );
      expect(loadConfig({ REPORTER_CONFIG: file }).alerts).toEqual([
        { name: 'unrecognisedShare-above-0.15', metric: 'unrecognisedShare', above: 0.15, periodHours: 24 },
      ]);
      writeFileSync(file, JSON.stringify({ projects, alerts: [{ metric: 'transferShare', abve: 0.2 }] }));
      expect(() => loadConfig({ REPORTER_CONFIG: file })).toThrow(
        /alerts\[0\]\.abve: unknown key \(did you mean "above"\?\)/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
