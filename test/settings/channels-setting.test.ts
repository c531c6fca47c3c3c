// REPORTER_CHATAPI_CHANNELS: name=token[@project] entries; a bare token gets a name that does not give it
// away; every error names the entry by position and name and never prints a token.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { UsageError } from '../../src/errors.js';
import { nameOfBareToken } from '../../src/settings/chatapi-channels.js';

const TOKEN = `AbCd1234:${'a1'.repeat(20)}`;
const OTHER = '6f1c2a8e-1b2c-4d3e-8f90-0123456789ab';
const base = { REPORTER_TOKEN: 'test-token-t' };

function channelsOf(value: string) {
  return loadConfig({ ...base, REPORTER_CHATAPI_CHANNELS: value }).chatApi.channels;
}

function errorOf(value: string): UsageError {
  try {
    channelsOf(value);
  } catch (error) {
    return error as UsageError;
  }
  throw new Error('no error');
}

describe('REPORTER_CHATAPI_CHANNELS', () => {
  it('reads named, bare and project-bound entries', () => {
    expect(channelsOf(`site=${TOKEN}, ${OTHER}  app=${TOKEN.replace('AbCd', 'EfGh')}@shop-bot`)).toEqual([
      { name: 'site', token: TOKEN },
      { name: nameOfBareToken(OTHER), token: OTHER },
      { name: 'app', token: TOKEN.replace('AbCd', 'EfGh'), project: 'shop-bot' },
    ]);
    expect(nameOfBareToken(OTHER)).toMatch(/^chatapi-[0-9a-f]{8}$/);
    expect(nameOfBareToken(OTHER)).not.toContain(OTHER.slice(0, 8));
    const config = loadConfig(base);
    expect(config.chatApi).toEqual({
      channels: [],
      baseUrl: 'https://app.jaicp.com',
      // messages about the address name the setting it came from
      baseUrlSetting: 'REPORTER_BASE_URL',
      path: '/chatapi',
      timeZone: 'UTC',
    });
  });

  it('names the bad entry and the setting, never the token', () => {
    for (const [value, reason] of [
      [`Site!=${TOKEN}`, /entry 1 \(site!\): a channel name/],
      [`site=${TOKEN},site=${OTHER}`, /site is given twice/],
      [`a=${TOKEN},b=${TOKEN}`, /channel b repeats the token/],
      [`site=${TOKEN}@`, /entry 1 \(site\): a project name follows the @/],
      ['site=short', /entry 1 \(site\): the token is not/],
    ] as const) {
      const error = errorOf(value);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toMatch(/REPORTER_CHATAPI_CHANNELS/);
      expect(error.message).toMatch(reason);
      expect(error.message).not.toContain(TOKEN);
      expect(error.message).not.toContain(OTHER);
      expect(error.message).not.toContain('short');
    }
    expect(() => loadConfig({ ...base, REPORTER_CHATAPI_TIMEZONE: 'Mars/Base' })).toThrow(
      /REPORTER_CHATAPI_TIMEZONE/,
    );
    expect(() => loadConfig({ ...base, REPORTER_CHATAPI_PATH: 'chatapi' })).toThrow(/REPORTER_CHATAPI_PATH/);
  });
});
