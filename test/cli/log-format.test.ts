// LOG_FORMAT: JSON records for pipes and cron, one human line per record on a terminal (pretty), tokens
// redacted in both; and a log line written while a progress line is shown takes it off first (no glued lines).
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { formatLogLine } from '../../src/text/format-log-line.js';
import { clearStatusLine, showStatusLine, writeAboveStatusLine } from '../../src/text/status-line.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.restoreAllMocks();
});

function logTo(
  format: 'json' | 'pretty',
  secrets: string[],
  write: (log: ReturnType<typeof createLogger>) => void,
) {
  const file = join(mkdtempSync(join(tmpdir(), 'log-format-')), 'log.txt');
  const fd = openSync(file, 'w');
  write(createLogger({ level: 'info', secrets, destination: fd, format }));
  closeSync(fd);
  return readFileSync(file, 'utf8');
}

describe('LOG_FORMAT', () => {
  it('pretty: time, level, message, then the other fields as key=value, control characters escaped', () => {
    const time = new Date(2026, 10, 20, 12, 3, 4).getTime();
    const line = formatLogLine(
      JSON.stringify({
        level: 40,
        time,
        pid: 1,
        hostname: 'h',
        path: 'data/warehouse.duckdb',
        pid2: 4242,
        msg: 'waiting\u001b[31m',
      }),
    );
    expect(line).toBe('12:03:04 warn  waiting\\u001b[31m (path=data/warehouse.duckdb pid2=4242)\n');
    expect(
      formatLogLine(
        JSON.stringify({ level: 50, time, msg: 'failed', err: { message: 'no route', stack: 'x' } }),
      ),
    ).toBe('12:03:04 error failed (err="no route")\n');
  });

  it('redacts tokens in both formats', () => {
    const secret = 'secret-token-1234';
    for (const format of ['json', 'pretty'] as const) {
      const out = logTo(format, [secret], (log) => {
        log.warn(
          { url: `https://x/${secret}/a`, token: 'other', headers: { authorization: 'Bearer z' } },
          `saw ${secret}`,
        );
      });
      expect(out).not.toContain(secret);
      expect(out).not.toContain('Bearer z');
      expect(out).toContain('***');
      if (format === 'json') expect(JSON.parse(out).msg).toBe('saw ***');
      else expect(out).toMatch(/^\d\d:\d\d:\d\d warn {2}saw \*\*\* \(/);
    }
  });

  it('a bad value is a usage error naming LOG_FORMAT', () => {
    expect(() => loadConfig({ REPORTER_TOKEN: 'test-token-t', LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
    expect(loadConfig({ REPORTER_TOKEN: 'test-token-t', LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
  });

  it('a log line takes the progress line off and draws it again after', () => {
    const writes: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    });
    showStatusLine('window 1/3');
    writeAboveStatusLine(() => process.stderr.write('12:03:04 warn  slow\n'));
    clearStatusLine();
    writeAboveStatusLine(() => process.stderr.write('after\n'));
    vi.restoreAllMocks();
    expect(writes.join('')).toBe(
      '\r\x1b[2Kwindow 1/3' + '\r\x1b[2K12:03:04 warn  slow\nwindow 1/3' + '\r\x1b[2K' + 'after\n',
    );
  });

  it('the CLI writes human lines with LOG_FORMAT=pretty and JSON without it (not a terminal)', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 100 } });
    const pretty = await runCli(['sync'], { ...h.env, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    expect(pretty.code, pretty.stderr).toBe(0);
    const lines = pretty.stderr.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(/^\d\d:\d\d:\d\d (trace|debug|info |warn |error|fatal) \S/);
    // the first run creates the warehouse: one line saying so, not one per migration
    const newest = Math.max(...readdirSync('src/warehouse/migrations').map((f) => Number.parseInt(f, 10)));
    expect(lines.filter((l) => /warehouse|migration/.test(l))).toEqual([
      expect.stringMatching(new RegExp(`info  warehouse created \\(schema version ${newest}\\)`)),
    ]);
    const json = await runCli(['sync'], { ...h.env, LOG_LEVEL: 'info' });
    expect(json.code, json.stderr).toBe(0);
    for (const line of json.stderr.split('\n').filter((l) => l !== ''))
      expect(() => JSON.parse(line)).not.toThrow();
    const bad = await runCli(['sync'], { ...h.env, LOG_FORMAT: 'xml' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/LOG_FORMAT/);
  }, 240_000);
});
