// The settings of the units against config.ts's ENV_KEYS (the keys the tool reads, the independent list):
// each key is owned by exactly one unit (or the core), every key whose name says TOKEN, KEY, PASSWORD or
// SECRET is marked secret, and the log of a command redacts the value of every secret setting (a sample
// value per secret key, loaded through loadConfig, logged, and looked for on the line).
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectSecrets, collectSettings } from '../../src/cli/collect-secrets.js';
import { ENV_KEYS, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';

const SECRET_NAME = /TOKEN|KEY|PASSWORD|SECRET/;

/**
 * A value for each setting that holds a secret, and the secret in it. A secret key added to ENV_KEYS without a
 * sample here fails the test: add one, so its redaction is checked.
 */
const SAMPLES: Record<string, { env: string; secret: string }> = {
  REPORTER_TOKEN: { env: 'reporter-token-0123456789', secret: 'reporter-token-0123456789' },
  REPORTER_KB_KEY: { env: 'kb-project-key-0123456789', secret: 'kb-project-key-0123456789' },
  REPORTER_KB_ADMIN_KEY: { env: 'kb-admin-key-0123456789', secret: 'kb-admin-key-0123456789' },
  REPORTER_WEBHOOK_KEY: { env: 'webhook-key-0123456789', secret: 'webhook-key-0123456789' },
  REPORTER_CLICKHOUSE_PASSWORD: { env: 'clickhouse-pass-0123456789', secret: 'clickhouse-pass-0123456789' },
  // secrets inside values whose names do not say so
  REPORTER_CHATAPI_CHANNELS: { env: 'main=channel-token-0123456789', secret: 'channel-token-0123456789' },
  REPORTER_PUSHGATE_URL: {
    env: 'https://bot.example/pushgate/push_pushback-id-0123456789',
    secret: 'pushback-id-0123456789',
  },
  REPORTER_EMBEDDINGS_URL: {
    env: 'http://:embeddings-key-0123456789@127.0.0.1:8080/v1/embeddings',
    secret: 'embeddings-key-0123456789',
  },
};

function settingsByName() {
  const owners = new Map<string, number>();
  const all = collectSettings();
  for (const specs of all)
    for (const name of Object.keys(specs)) owners.set(name, (owners.get(name) ?? 0) + 1);
  return { owners, flat: Object.assign({}, ...all) as Record<string, { secret?: unknown }> };
}

describe('the units’ settings', () => {
  it('own every key config.ts reads, each once', () => {
    const { owners } = settingsByName();
    expect([...owners.keys()].sort()).toEqual(Object.keys(ENV_KEYS).sort());
    expect([...owners].filter(([, n]) => n > 1)).toEqual([]);
  });

  it('mark every setting whose name says TOKEN, KEY, PASSWORD or SECRET as secret', () => {
    const { flat } = settingsByName();
    const named = Object.keys(ENV_KEYS).filter((k) => SECRET_NAME.test(k));
    expect(named.length).toBeGreaterThanOrEqual(5);
    for (const name of named) expect(flat[name]?.secret, name).toBeTypeOf('function');
    for (const name of named) expect(SAMPLES[name], `a sample value for ${name}`).toBeDefined();
  });

  it('redact the value of every secret setting from the log', () => {
    // the password is read (and so redacted) only when ClickHouse is configured, as before the units
    const env: Record<string, string> = {
      REPORTER_DATA_DIR: tmpdir(),
      REPORTER_CLICKHOUSE_URL: 'http://127.0.0.1:8123',
    };
    for (const [name, sample] of Object.entries(SAMPLES)) env[name] = sample.env;
    const config = loadConfig(env);
    const secrets = collectSecrets(config);
    const dir = mkdtempSync(join(tmpdir(), 'unit-settings-'));
    try {
      const file = join(dir, 'log.txt');
      const fd = openSync(file, 'w');
      const log = createLogger({ level: 'info', secrets, destination: fd, format: 'json' });
      for (const [name, sample] of Object.entries(SAMPLES))
        log.error({ setting: name }, `failed with ${sample.secret}`);
      closeSync(fd);
      const text = readFileSync(file, 'utf8');
      expect(text.split('\n').filter(Boolean)).toHaveLength(Object.keys(SAMPLES).length);
      for (const [name, sample] of Object.entries(SAMPLES)) expect(text, name).not.toContain(sample.secret);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
