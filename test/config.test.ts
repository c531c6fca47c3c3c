// Configuration: defaults, and errors that name the setting at fault.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { UsageError } from '../src/errors.js';
import { configuredWarehouse, useWarehouseAt } from '../src/manage/use-warehouse.js';
import { reporterHttpOptions } from '../src/platform/reporter/http-options.js';
import { ReporterHttp } from '../src/platform/reporter/reporter-http.js';
import { openWarehouse } from '../src/warehouse/open-warehouse.js';

describe('loadConfig', () => {
  it('refuses a secret holding a control character, naming the setting, never the value', () => {
    const secret = 'SECRETA\nB';
    const cases: [string, Record<string, string>][] = [
      ['REPORTER_TOKEN', { REPORTER_TOKEN: secret }],
      ['REPORTER_KB_KEY', { REPORTER_KB_KEY: secret }],
      ['REPORTER_KB_ADMIN_KEY', { REPORTER_KB_KEY: 'ok-key-12345', REPORTER_KB_ADMIN_KEY: 'SECRETA\tB' }],
      ['REPORTER_WEBHOOK_KEY', { REPORTER_WEBHOOK_KEY: 'SECRETA-long-enough\u007f' }],
      ['REPORTER_CLICKHOUSE_PASSWORD', { REPORTER_CLICKHOUSE_PASSWORD: 'SECRETA\rB' }],
    ];
    for (const [setting, env] of cases) {
      let error: unknown;
      try {
        loadConfig(env, { requireToken: false });
      } catch (e) {
        error = e;
      }
      expect(error, setting).toBeInstanceOf(UsageError);
      const message = (error as UsageError).message;
      expect(message, setting).toContain(`${setting}: holds a control character`);
      expect(message, setting).not.toContain('SECRETA');
    }
    // a line break around the value (a file read into the variable) is trimmed, not refused
    expect(loadConfig({ REPORTER_KB_KEY: 'key-from-a-file\n' }, { requireToken: false }).kb.key).toBe(
      'key-from-a-file',
    );
    const dir = mkdtempSync(join(tmpdir(), 'config-secret-'));
    const file = join(dir, 'projects.json');
    writeFileSync(file, JSON.stringify({ projects: [{ token: secret }] }));
    expect(() => loadConfig({ REPORTER_CONFIG: file })).toThrow(
      /projects\[0\]\.token: holds a control character/,
    );
    expect(() => loadConfig({ REPORTER_CONFIG: file })).not.toThrow(/SECRETA/);
  });

  it('reads the environment with sensible defaults', () => {
    const c = loadConfig({ REPORTER_TOKEN: 'test-token-abc' });
    expect(c.projects).toEqual([
      { baseUrl: 'https://app.jaicp.com', token: 'test-token-abc', api: 'v1', durationUnit: 'ms' },
    ]);
    expect(c.warehousePath).toMatch(/data\/warehouse\.duckdb$/);
    expect(c.lookbackMs).toBe(48 * 3_600_000);
    expect(c.syncMemoryLimit).toBe('64MB');
    expect(c.syncThreads).toBe(1);
    expect(c.windowMaxBytes).toBe(16_000_000);
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('reads the sync memory sizes the way DuckDB writes them; the window byte bound follows the pool', () => {
    const c = loadConfig({ REPORTER_TOKEN: 'test-token-abc', REPORTER_SYNC_DUCKDB_MEMORY_LIMIT: '128MiB' });
    expect(c.syncMemoryLimit).toBe('128MiB');
    expect(c.windowMaxBytes).toBe(32 * 2 ** 20);
    expect(
      loadConfig({ REPORTER_TOKEN: 'test-token-abc', REPORTER_WINDOW_MAX_BYTES: '1.5GB' }).windowMaxBytes,
    ).toBe(1.5e9);
    expect(() =>
      loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_WINDOW_MAX_BYTES: '10 apples' }),
    ).toThrow(/REPORTER_WINDOW_MAX_BYTES: expected a size like 96MB/);
    expect(() =>
      loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_SYNC_DUCKDB_MEMORY_LIMIT: "1GB'; --" }),
    ).toThrow(/REPORTER_SYNC_DUCKDB_MEMORY_LIMIT/);
  });

  it('reads the byte bound of a webhook load transaction (REPORTER_WEBHOOKS_LOAD_MAX_BYTES), 1 MiB unless set', () => {
    expect(loadConfig({ REPORTER_TOKEN: 'test-token-abc' }).webhooks.loadMaxBytes).toBe(2 ** 20);
    const c = loadConfig({ REPORTER_TOKEN: 'test-token-abc', REPORTER_WEBHOOKS_LOAD_MAX_BYTES: '512KB' });
    expect(c.webhooks.loadMaxBytes).toBe(512_000);
    expect(() =>
      loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_WEBHOOKS_LOAD_MAX_BYTES: '12' }),
    ).toThrow(/REPORTER_WEBHOOKS_LOAD_MAX_BYTES: expected a size like 96MB/);
  });

  it("reads DuckDB's memory limit for everything but the sync from the configuration, validated", async () => {
    expect(loadConfig({ REPORTER_TOKEN: 'test-token-abc' }).memoryLimit).toBe('256MB');
    const c = loadConfig({ REPORTER_TOKEN: 'test-token-abc', REPORTER_DUCKDB_MEMORY_LIMIT: '64MB' });
    expect(c.memoryLimit).toBe('64MB');
    expect(() =>
      loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_DUCKDB_MEMORY_LIMIT: "1GB'; --" }),
    ).toThrow(/REPORTER_DUCKDB_MEMORY_LIMIT: expected a size like 96MB/);
    // the commands' warehouse opens with it (it used to be read from process.env when the module loaded)
    const dir = mkdtempSync(join(tmpdir(), 'config-memory-'));
    const config = loadConfig({
      REPORTER_TOKEN: 'test-token-abc',
      REPORTER_DATA_DIR: dir,
      REPORTER_DUCKDB_MEMORY_LIMIT: '64MB',
    });
    expect(configuredWarehouse(config, 'write')).toMatchObject({ memoryLimit: '64MB' });
    const read = "select current_setting('memory_limit') as memory_limit";
    const [opened] = await useWarehouseAt(configuredWarehouse(config, 'write'))((w) => w.query(read));
    const [def, small] = await Promise.all(
      ['256MB', '64MB'].map(async (memoryLimit) => {
        const w = await openWarehouse({ path: ':memory:', memoryLimit });
        try {
          return (await w.query(read))[0];
        } finally {
          await w.close();
        }
      }),
    );
    expect(small!['memory_limit']).not.toEqual(def!['memory_limit']);
    expect(opened!['memory_limit']).toEqual(small!['memory_limit']);
  });

  it("reads DuckDB's threads for everything but the sync (REPORTER_DUCKDB_THREADS), validated, and opens with them", async () => {
    expect(loadConfig({ REPORTER_TOKEN: 'test-token-abc' }).threads).toBe(2);
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_DUCKDB_THREADS: '0' })).toThrow(
      /REPORTER_DUCKDB_THREADS/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'config-threads-'));
    const read = "select current_setting('threads') as threads";
    const opened = await Promise.all(
      ['1', '3'].map(async (threads) => {
        const config = loadConfig({
          REPORTER_TOKEN: 'test-token-abc',
          REPORTER_DATA_DIR: join(dir, threads),
          REPORTER_DUCKDB_THREADS: threads,
        });
        const [row] = await useWarehouseAt(configuredWarehouse(config, 'write'))((w) => w.query(read));
        return Number(row!['threads']);
      }),
    );
    expect(opened).toEqual([1, 3]);
  });

  it('REPORTER_MAX_CONCURRENCY: 32 by default (at least REPORTER_CONCURRENCY), never below the start', () => {
    const token = { REPORTER_TOKEN: 'test-token-x' };
    expect(loadConfig(token).maxConcurrency).toBe(32);
    expect(loadConfig({ ...token, REPORTER_CONCURRENCY: '40' }).maxConcurrency).toBe(40);
    expect(loadConfig({ ...token, REPORTER_MAX_CONCURRENCY: '8' }).maxConcurrency).toBe(8);
    expect(() => loadConfig({ ...token, REPORTER_CONCURRENCY: '8', REPORTER_MAX_CONCURRENCY: '4' })).toThrow(
      /REPORTER_MAX_CONCURRENCY \(4\) is below REPORTER_CONCURRENCY \(8\)/,
    );
    expect(() => loadConfig({ ...token, REPORTER_MAX_CONCURRENCY: '0' })).toThrow(/REPORTER_MAX_CONCURRENCY/);
    expect(() => loadConfig({ ...token, REPORTER_MAX_CONCURRENCY: 'lots' })).toThrow(
      /REPORTER_MAX_CONCURRENCY/,
    );
  });

  it('names the missing or malformed setting', () => {
    expect(() => loadConfig({})).toThrow(/REPORTER_TOKEN: is required/);
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_API: 'v2' })).toThrow(/REPORTER_API/);
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_BASE_URL: 'app.jaicp.com' })).toThrow(
      /REPORTER_BASE_URL/,
    );
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_CONCURRENCY: 'many' })).toThrow(
      /REPORTER_CONCURRENCY: expected a whole number/,
    );
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_SYNC_DUCKDB_THREADS: '0' })).toThrow(
      /REPORTER_SYNC_DUCKDB_THREADS/,
    );
    expect(
      loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_SYNC_DUCKDB_THREADS: '3' }).syncThreads,
    ).toBe(3);
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_LOOKBACK_HOURS: '-1' })).toThrow(
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
          { token: 'test-token-1', project: 'a' },
          { token: 'test-token-2', project: 'b', api: 'legacy' },
        ],
      }),
    );
    expect(loadConfig({ REPORTER_CONFIG: good }).projects.map((p) => `${p.project}:${p.api}`)).toEqual([
      'a:v1',
      'b:legacy',
    ]);
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ projects: [{ token: 'test-token-1' }, { token: '', baseUrl: 'nope' }] }),
    );
    expect(() => loadConfig({ REPORTER_CONFIG: bad })).toThrow(/projects\[1\]\.(token|baseUrl)/);
    expect(() => loadConfig({ REPORTER_CONFIG: join(dir, 'missing.json') })).toThrow(
      /REPORTER_CONFIG: cannot read/,
    );
  });

  it('names the line and column of a JSON mistake in the REPORTER_CONFIG file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'trailing-comma.json');
    // a trailing comma after the last key of the second project: line 4, column 46 is the closing brace
    writeFileSync(
      file,
      '{\n  "projects": [\n    {"token": "test-token-1", "project": "a"},\n    {"token": "test-token-2", "project": "b",}\n  ]\n}\n',
    );
    expect(() => loadConfig({ REPORTER_CONFIG: file })).toThrow(
      /REPORTER_CONFIG: cannot read .*trailing-comma\.json as JSON \(not valid JSON at line 4, column 46: /,
    );
  });

  it('refuses a REPORTER_CONFIG that is no regular file, or too large to be one, before reading it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    expect(() => loadConfig({ REPORTER_CONFIG: dir })).toThrow(
      /REPORTER_CONFIG: .* is a folder; name a JSON file/,
    );
    // a device never ends: reading it whole would hang the command (and fill its memory)
    if (existsSync('/dev/zero'))
      expect(() => loadConfig({ REPORTER_CONFIG: '/dev/zero' })).toThrow(
        /REPORTER_CONFIG: \/dev\/zero is not a regular file/,
      );
    const huge = join(dir, 'huge.json');
    writeFileSync(huge, `{"projects":[],"pad":"${'x'.repeat(1_000_000)}"}`);
    expect(() => loadConfig({ REPORTER_CONFIG: huge })).toThrow(
      /holds 1,000,\d+ bytes, more than a configuration file/,
    );
  });

  it('reads the scheduler settings from the environment and the config file; the environment wins', () => {
    const defaults = loadConfig({ REPORTER_TOKEN: 'test-token-x' });
    expect({
      timeZone: defaults.timeZone,
      jobs: defaults.jobs,
      schedules: defaults.schedules,
      retentionMs: defaults.retentionMs,
      shutdownGraceMs: defaults.shutdownGraceMs,
    }).toEqual({
      timeZone: 'UTC',
      jobs: null,
      schedules: {},
      retentionMs: 30 * 86_400_000,
      shutdownGraceMs: 30_000,
    });
    const env = loadConfig({
      REPORTER_TOKEN: 'test-token-x',
      REPORTER_TZ: 'Europe/Moscow',
      REPORTER_JOBS: 'sync, retention',
      REPORTER_SCHEDULE_DAILY_REPORT: '0 6 * * 1-5',
      REPORTER_RETENTION_DAYS: '7',
      REPORTER_SHUTDOWN_GRACE_SECONDS: '5',
    });
    expect(env.timeZone).toBe('Europe/Moscow');
    expect(env.jobs).toEqual(['sync', 'retention']);
    expect(env.schedules).toEqual({
      'daily-report': { expression: '0 6 * * 1-5', setting: 'REPORTER_SCHEDULE_DAILY_REPORT' },
    });
    expect(env.retentionMs).toBe(7 * 86_400_000);
    expect(env.shutdownGraceMs).toBe(5000);
    expect(loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_JOBS: 'all' }).jobs).toBeNull();

    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const file = join(dir, 'schedule.json');
    writeFileSync(
      file,
      JSON.stringify({
        projects: [{ token: 'test-token-1' }],
        schedule: {
          timeZone: 'Asia/Tokyo',
          jobs: ['sync'],
          cron: { sync: '*/10 * * * *' },
          retentionDays: 3,
        },
      }),
    );
    const fromFile = loadConfig({ REPORTER_CONFIG: file });
    expect(fromFile.timeZone).toBe('Asia/Tokyo');
    expect(fromFile.jobs).toEqual(['sync']);
    expect(fromFile.schedules['sync']?.expression).toBe('*/10 * * * *');
    expect(fromFile.retentionMs).toBe(3 * 86_400_000);
    const both = loadConfig({
      REPORTER_CONFIG: file,
      REPORTER_TZ: 'UTC',
      REPORTER_SCHEDULE_SYNC: '*/20 * * * *',
    });
    expect(both.timeZone).toBe('UTC');
    expect(both.schedules['sync']).toEqual({ expression: '*/20 * * * *', setting: 'REPORTER_SCHEDULE_SYNC' });
    const bad = join(dir, 'bad-schedule.json');
    writeFileSync(
      bad,
      JSON.stringify({ projects: [{ token: 'test-token-1' }], schedule: { cron: { sync: 'often' } } }),
    );
    expect(() => loadConfig({ REPORTER_CONFIG: bad })).toThrow(
      /schedule\.cron\.sync: "often" is not a cron expression/,
    );
  });

  it('refuses a misspelled key of the REPORTER_CONFIG file, naming its path and the key it resembles', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const write = (name: string, content: unknown) => {
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(content));
      return file;
    };
    const refusal = (content: unknown) => {
      try {
        loadConfig({ REPORTER_CONFIG: write('c.json', content) });
      } catch (error) {
        return error as UsageError;
      }
      throw new Error('the configuration was accepted');
    };
    const tokn = refusal({
      projects: [
        { token: 'test-token-1', project: 'a' },
        { tokn: 'test-token-2', project: 'b' },
      ],
    });
    expect(tokn).toBeInstanceOf(UsageError);
    expect(tokn.exitCode).toBe(2);
    expect(tokn.message).toMatch(/REPORTER_CONFIG/);
    expect(tokn.message).toMatch(/projects\[1\]\.tokn: unknown key \(did you mean "token"\?\)/);
    expect(refusal({ projects: [{ token: 'test-token-t', baseURL: 'https://x.example' }] }).message).toMatch(
      /projects\[0\]\.baseURL: unknown key \(did you mean "baseUrl"\?\)/,
    );
    expect(refusal({ projects: [{ token: 'test-token-t' }], schedul: {} }).message).toMatch(
      /schedul: unknown key \(did you mean "schedule"\?\)/,
    );
    expect(refusal({ projects: [{ token: 'test-token-t' }], schedule: { timezone: 'UTC' } }).message).toMatch(
      /schedule\.timezone: unknown key \(did you mean "timeZone"\?\)/,
    );
    // nothing close: named, with the keys that are known there
    const far = refusal({ projects: [{ token: 'test-token-t', colour: 'red' }] }).message;
    expect(far).toMatch(/projects\[0\]\.colour: unknown key; known keys here: baseUrl, token, api/);
    expect(far).not.toMatch(/did you mean/);
  });

  it('warns once when the token would travel in clear text (http:// to a host that is not loopback)', async () => {
    const warnings = (baseUrl: string, clients = 1) => {
      const lines: string[] = [];
      const log = pino(
        { level: 'warn' },
        new Writable({
          write(chunk, _encoding, done) {
            lines.push(String(chunk));
            done();
          },
        }),
      );
      const config = loadConfig({ REPORTER_TOKEN: 'secret-token-77', REPORTER_BASE_URL: baseUrl });
      for (let n = 0; n < clients; n++)
        new ReporterHttp(reporterHttpOptions(config, config.projects[0]!, { log })).close();
      return lines.map((l) => JSON.parse(l) as { level: number; msg: string });
    };
    const plain = warnings('http://reporter.example.com:8080', 3);
    expect(plain).toHaveLength(1);
    expect(plain[0]!.level).toBe(40);
    expect(plain[0]!.msg).toMatch(/REPORTER_BASE_URL is http:\/\/ to reporter\.example\.com.*clear text/);
    expect(JSON.stringify(plain)).not.toContain('secret-token-77');
    for (const quiet of [
      'https://reporter.example.com',
      'http://127.0.0.1:4010',
      'http://127.8.9.10:4010',
      'http://localhost:4010',
      'http://[::1]:4010',
    ])
      expect(warnings(quiet), quiet).toEqual([]);
  });

  it('names the scheduler setting at fault', () => {
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_TZ: 'Moscow' })).toThrow(
      /REPORTER_TZ: expected an IANA/,
    );
    expect(() =>
      loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_SCHEDULE_SYNC: '*/15 * * *' }),
    ).toThrow(/REPORTER_SCHEDULE_SYNC: "\*\/15 \* \* \*" is not a cron expression/);
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_JOBS: 'Sync' })).toThrow(
      /REPORTER_JOBS/,
    );
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-x', REPORTER_RETENTION_DAYS: '0' })).toThrow(
      /REPORTER_RETENTION_DAYS/,
    );
  });
});
