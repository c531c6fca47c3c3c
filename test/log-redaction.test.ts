// The log's redaction (src/log.ts over src/secrets/redact-secrets.ts): a logged error keeps its message, code, stack
// and cause whatever secrets are configured, and a secret is in no form on the line (raw, JSON-escaped,
// \uXXXX-escaped in any mix, URL-encoded), also when it holds a quote, a backslash or non-ASCII letters,
// in either format; a secret too short to redact safely is refused by the configuration, naming the setting.
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { EtlError } from '../src/errors.js';
import { createLogger, type LogFormat } from '../src/log.js';
import { redactSecrets } from '../src/secrets/redact-secrets.js';
import { echoedForms, leaksOf } from './helpers/secret-leaks.js';

const SECRETS = ['quo"te-secret-1', 'back\\slash-secret-2', 'ключ-секрет-3', 'plain-secret-4 with space'];

function logLines(format: LogFormat, write: (log: ReturnType<typeof createLogger>) => void): string {
  const file = join(mkdtempSync(join(tmpdir(), 'log-redaction-')), 'log.txt');
  const fd = openSync(file, 'w');
  write(createLogger({ level: 'info', secrets: SECRETS, destination: fd, format }));
  closeSync(fd);
  return readFileSync(file, 'utf8');
}

const allUnicodeEscaped = (text: string): string =>
  [...text]
    .map((c) => [...c].map((_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''))
    .join('');
const nonAsciiEscaped = (text: string): string =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** Every second character \u-escaped, upper-case hex: a mix no serializer makes, but a producer may. */
const mixedEscaped = (text: string): string =>
  [
    ...JSON.stringify(text)
      .slice(1, -1)
      .replace(/\\(["\\])/g, '$1'),
  ]
    .map((c, i) => (i % 2 === 0 ? `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : c))
    .join('');

/** Every form a secret can take in a line: what must never be found. */
function formsOf(secret: string): string[] {
  return [
    secret,
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1),
    allUnicodeEscaped(secret),
    nonAsciiEscaped(secret),
    mixedEscaped(secret),
    encodeURIComponent(secret),
    encodeURIComponent(secret).replace(/%20/g, '+'),
    encodeURIComponent(secret).toLowerCase(),
  ];
}

function diskFullError(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `ENOSPC: no space left on device, write '/data/${SECRETS[2]}/warehouse.duckdb.wal'`,
  );
  Object.assign(error, { errno: -28, code: 'ENOSPC', syscall: 'write' });
  return error;
}

describe('a logged error, with secrets configured', () => {
  for (const format of ['json', 'pretty'] as const)
    it(`keeps its message, code, stack and cause (${format})`, () => {
      const locked = new EtlError('warehouse.locked', 'the warehouse is held by pid 4242 for 31 s', {
        kind: 'transient',
      });
      const oom = new Error('out of memory loading the window', {
        cause: new RangeError('Array buffer allocation failed'),
      });
      const out = logLines(format, (log) => {
        log.error({ err: locked }, 'sync failed');
        log.error({ err: diskFullError() }, 'spool write failed');
        log.error({ err: oom }, 'load failed');
      });
      expect(out).toContain('the warehouse is held by pid 4242 for 31 s');
      expect(out).toContain('ENOSPC: no space left on device');
      expect(out).toContain('Array buffer allocation failed');
      expect(out).not.toContain(SECRETS[2]);
      if (format === 'pretty') return;
      const errs = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).err);
      expect(errs[0]).toMatchObject({ code: 'warehouse.locked', kind: 'transient', type: 'EtlError' });
      expect(errs[0].message).toBe('the warehouse is held by pid 4242 for 31 s');
      expect(errs[0].stack).toMatch(/^EtlError: the warehouse is held by pid 4242 for 31 s\n {4}at /);
      expect(errs[1]).toMatchObject({ code: 'ENOSPC', errno: -28, syscall: 'write' });
      expect(errs[1].message).toMatch(/^ENOSPC: no space left on device, write '\/data\/\*\*\*\//);
      expect(errs[1].stack).toMatch(/^Error: ENOSPC/);
      expect(errs[2].message).toContain('Array buffer allocation failed');
      expect(errs[2].stack).toMatch(/caused by: RangeError: Array buffer allocation failed/);
    });
});

describe('a secret on a log line', () => {
  for (const format of ['json', 'pretty'] as const)
    it(`is in no form, in the message, fields, keys or nested JSON (${format})`, () => {
      const out = logLines(format, (log) => {
        for (const secret of SECRETS) {
          log.warn({ url: `https://x.example/${encodeURIComponent(secret)}/a` }, `saw ${secret}`);
          log.warn({ field: `a ${secret} b`, [secret]: 1, nested: { deep: [secret] } }, 'in fields');
          log.warn({ body: JSON.stringify({ token: secret }) }, 'a body as text');
          for (const form of formsOf(secret)) log.warn({ form, text: `x${form}y` }, `form ${form}`);
        }
        log.warn({ err: new Error(`refused ${SECRETS[0]}`) }, 'an error message');
      });
      for (const secret of SECRETS) for (const form of formsOf(secret)) expect(out).not.toContain(form);
      expect(out).toContain('***');
      if (format === 'json')
        for (const line of out.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    });

  it('leaves a line without a secret as it was written', () => {
    const out = logLines('json', (log) => log.info({ a: 'quo"te', b: 'back\\slash', c: 'ключ' }, 'nothing'));
    expect(JSON.parse(out)).toMatchObject({ a: 'quo"te', b: 'back\\slash', c: 'ключ', msg: 'nothing' });
  });
});

describe('redactSecrets on a text', () => {
  it('replaces every form of each secret, and nothing else', () => {
    for (const secret of SECRETS) {
      const text = formsOf(secret)
        .map((form) => `<${form}>`)
        .join(' ');
      expect(redactSecrets(text, [secret])).toBe(
        formsOf(secret)
          .map(() => '<***>')
          .join(' '),
      );
    }
    expect(redactSecrets('nothing to hide: quo"te back\\slash', SECRETS)).toBe(
      'nothing to hide: quo"te back\\slash',
    );
  });
});

describe('a secret encoded as a server may echo it (issue 43)', () => {
  it('the check finds every echoed form before redaction (so it can fail)', () => {
    for (const secret of SECRETS)
      for (const [name, form] of Object.entries(echoedForms(secret)))
        expect(leaksOf(`x ${form} y`, secret), `${name} of ${secret}`).not.toEqual([]);
  });

  for (const format of ['json', 'pretty'] as const)
    it(`is in no encoding on a log line: hex, base64, base64url at 3 alignments, Basic auth, mixes (${format})`, () => {
      const out = logLines(format, (log) => {
        for (const secret of SECRETS)
          for (const [name, form] of Object.entries(echoedForms(secret))) {
            log.warn({ body: `{"echo":"${form}"}`, nested: { deep: [form] } }, `${name}: ${form}.`);
            log.warn({ err: new Error(`answered 400: ${form}`) }, 'an error message');
          }
      });
      for (const secret of SECRETS) expect(leaksOf(out, secret), secret).toEqual([]);
      expect(out).toContain('basic auth: Basic');
      if (format === 'json')
        for (const line of out.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    });

  it('redactSecrets masks each encoding and leaves the text around it', () => {
    for (const secret of SECRETS)
      for (const [name, form] of Object.entries(echoedForms(secret))) {
        const redacted = redactSecrets(`<${form}>`, [secret]);
        expect(leaksOf(redacted, secret), `${name} of ${secret}`).toEqual([]);
        expect(redacted).toMatch(/^<.*\*\*\*.*>$/);
      }
    expect(redactSecrets('Basic ZGVmYXVsdDpub3QtYS1zZWNyZXQ=', SECRETS)).toBe(
      'Basic ZGVmYXVsdDpub3QtYS1zZWNyZXQ=',
    );
  });
});

describe('a text of many backslashes, escapes or percent signs', () => {
  it('is searched in linear time (a quadratic search would take minutes)', () => {
    for (const unit of ['\\', '\\u', '%', '%25', '\\"']) {
      const text = unit.repeat(Math.floor((256 * 1024) / unit.length));
      expect(redactSecrets(text, SECRETS)).toBe(text);
    }
  });
});

describe('a secret too short to redact safely', () => {
  it('is refused by the configuration, naming the setting and not the value', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'log-redaction-')), 'config.json');
    writeFileSync(file, JSON.stringify({ projects: [{ token: 'long-enough-token' }, { token: 'sh0rt' }] }));
    const refusals: [setting: string, secret: string, env: Record<string, string>][] = [
      ['REPORTER_TOKEN', 'abc1234', { REPORTER_TOKEN: 'abc1234' }],
      ['projects\\[1\\]\\.token', 'sh0rt', { REPORTER_CONFIG: file }],
      ['REPORTER_KB_KEY', 'k3y', { REPORTER_KB_KEY: 'k3y' }],
      ['REPORTER_KB_ADMIN_KEY', 'adm1n', { REPORTER_KB_ADMIN_KEY: 'adm1n' }],
      [
        'REPORTER_CLICKHOUSE_PASSWORD',
        'pw',
        { REPORTER_CLICKHOUSE_URL: 'http://ch', REPORTER_CLICKHOUSE_PASSWORD: 'pw' },
      ],
      [
        'REPORTER_PUSHGATE_URL',
        'abcd',
        { REPORTER_PUSHGATE_URL: 'https://bot.example.com/pushgate/push_abcd' },
      ],
    ];
    for (const [setting, secret, env] of refusals) {
      let refusal: EtlError | undefined;
      try {
        loadConfig({ REPORTER_TOKEN: 'long-enough-token', ...env });
      } catch (error) {
        refusal = error as EtlError;
      }
      expect(refusal?.message, setting).toMatch(new RegExp(`${setting}: [^;]*at least 8 characters`));
      expect(refusal?.code).toBe('config.invalid');
      expect(refusal?.message).not.toContain(secret);
    }
    expect(() => loadConfig({ REPORTER_TOKEN: 'emulator-v1-token' })).not.toThrow();
  });
});
