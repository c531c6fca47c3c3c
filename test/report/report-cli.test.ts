// `reporter-etl report` end to end through main(): --list, a report written with --json (its result read back),
// the default period (yesterday in --tz), and refusals that name the option (exit 2), among them a data
// directory where the default report folder cannot be made (it says why, and to use --out DIR).
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePeriod, runReport } from '../../src/cli/commands/report.js';
import { main } from '../../src/cli/main.js';
import { createLogger, silentLogger } from '../../src/log.js';
import { createSyncedHarness, type Harness } from '../helpers/sync-harness.js';
import { readWorkbook } from './read-workbook.js';

let h: Harness;

beforeAll(async () => {
  h = await createSyncedHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

async function cli(args: string[], now = h.running.emulator.now()) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), isTty: false };
  const code = await runReport(args, io, { env: h.env, now: () => now, log: silentLogger() }).catch(
    async (e) => {
      // the same mapping of errors to exit codes as main()
      err.push(String(e.message));
      return (e as { exitCode?: number }).exitCode ?? 1;
    },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('reporter-etl report', () => {
  it('prints its result once: one line on stdout, no info log line repeating it', async () => {
    const logFile = join(mkdtempSync(join(tmpdir(), 'report-log-')), 'log.jsonl');
    const fd = openSync(logFile, 'w');
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: () => {}, isTty: false };
    const log = createLogger({ level: 'info', destination: fd, format: 'json' });
    const code = await runReport(['sessions', '--from', '2026-10-30', '--to', '2026-10-31'], io, {
      env: h.env,
      now: () => h.running.emulator.now(),
      log,
    });
    closeSync(fd);
    expect(code).toBe(0);
    expect(out.join('\n')).toContain('sessions_2026-10-30_2026-10-30.xlsx');
    expect(readFileSync(logFile, 'utf8')).toBe('');
  });

  it('--list names every report', async () => {
    const { code, out } = await cli(['--list', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out).reports.map((r: { id: string }) => r.id)).toEqual([
      'summary',
      'sessions',
      'messages',
      'labels',
      'prompter',
      'kb-health',
      'kb-eval',
      'unhandled',
      'paths',
    ]);
  });

  it('writes a report and prints its result with --json; the workbook holds what it says', async () => {
    const { code, out } = await cli([
      'sessions',
      '--from',
      '2026-10-30',
      '--to',
      '2026-10-31',
      '--tz',
      'Europe/Moscow',
      '--project',
      'shop-bot',
      '--json',
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(result.path).toBe(`${h.dir}/reports/sessions_2026-10-30_2026-10-30.xlsx`);
    expect(existsSync(result.path)).toBe(true);
    const truth = h.truth(Date.parse('2026-10-30T00:00:00+03:00'), Date.parse('2026-10-31T00:00:00+03:00'));
    expect(result.sheets).toEqual([{ name: 'Sessions', rows: truth.sessions }]);
    const { sheets } = await readWorkbook(result.path);
    expect(sheets[0]!.rows).toHaveLength(truth.sessions);
  });

  it('an empty report: a warning on stderr naming the period, and rows: 0 in --json', async () => {
    const { code, out, err } = await cli(['summary', '--from', '2025-01-01', '--to', '2025-01-02', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ rows: 0, empty: true });
    // the period lies before the synced data: the warning says so, and the sync that fetches it
    expect(err).toMatch(
      /^warning: summary: No data for 2025-01-01 \(UTC\): the warehouse holds data from \d{4}-\d\d-\d\d \d\d:\d\d to \d{4}-\d\d-\d\d \d\d:\d\d only; run reporter-etl sync --from 2025-01-01 --to 2025-01-02 --tz UTC; the report says so \(check --from\/--to, --tz, --project\)$/,
    );
    const kb = await cli(['kb-eval', '--from', '2025-01-01', '--to', '2025-01-02']);
    expect(kb.code).toBe(0);
    expect(kb.err).toBe(
      'warning: kb-eval: No data for 2025-01-01 (UTC): no kb eval run started in it; run reporter-etl kb eval --questions FILE (or report kb-eval with a wider --from / --to); the report says so (check --from/--to, --tz)',
    );
    // no stored unhandled run: the command that stores one, on the terminal (not only inside the file)
    const unhandled = await cli(['unhandled', '--from', '2026-10-30', '--to', '2026-10-31']);
    expect(unhandled.code).toBe(0);
    expect(unhandled.err).toMatch(
      /^warning: unhandled: No data for 2026-10-30 \(UTC\): no unhandled run of this period and selection is stored; run reporter-etl unhandled --from 2026-10-30 --to 2026-10-31 --tz UTC; the report says so \(check --from\/--to, --tz, --project\)$/,
    );
    // a report with rows: no warning, its total in --json
    const full = await cli(['sessions', '--from', '2026-10-30', '--to', '2026-10-31', '--json']);
    expect(full.err).toBe('');
    const result = JSON.parse(full.out);
    expect(result.rows).toBe(
      h.truth(Date.parse('2026-10-30T00:00:00Z'), Date.parse('2026-10-31T00:00:00Z')).sessions,
    );
    expect(result.empty).toBe(false);
  });

  it('defaults to yesterday in --tz', () => {
    const now = Date.parse('2026-11-20T22:30:00Z'); // already 2026-11-21 01:30 in Moscow
    expect(resolvePeriod({}, 'Europe/Moscow', now)).toEqual({
      from: Date.parse('2026-11-20T00:00:00+03:00'),
      to: Date.parse('2026-11-21T00:00:00+03:00'),
    });
    expect(resolvePeriod({}, 'UTC', now)).toEqual({
      from: Date.parse('2026-11-19T00:00:00Z'),
      to: Date.parse('2026-11-20T00:00:00Z'),
    });
  });

  it('refuses bad input naming the option (exit 2)', async () => {
    const io = { out: () => {}, err: (l: string) => errors.push(l), isTty: false };
    const errors: string[] = [];
    expect(await main(['report', 'weekly'], io)).toBe(2);
    expect(errors.join('\n')).toMatch(/unknown report "weekly"/);
    expect((await cli(['summary', '--tz', 'Nowhere/City'])).code).toBe(2);
    expect((await cli(['summary', '--from', '2026-13-45'])).err).toMatch(/--from expects/);
    // an impossible date is refused, not read as the next day (December 1)
    const impossible = await cli(['summary', '--from', '2026-11-31T00:00:00Z', '--to', '2026-12-02']);
    expect(impossible.code).toBe(2);
    expect(impossible.err).toMatch(/--from expects .*no such date or time/);
    expect((await cli(['summary', '--to', '2026-02-29T12:00Z'])).err).toMatch(/--to expects/);
    expect((await cli(['summary', '--from', '2026-10-31', '--to', '2026-10-30'])).err).toMatch(
      /must be before --to/,
    );
    const ghost = await cli(['summary', '--from', '2026-10-30', '--to', '2026-10-31', '--project', 'ghost']);
    expect(ghost.code).toBe(2);
    expect(ghost.err).toMatch(/--project: the warehouse holds no data of project "ghost"/);
    expect((await cli([])).err).toMatch(/give one report id/);
  });

  /** A data directory holding a copy of the warehouse (the report opens it read-only). */
  function copyWarehouseTo(dataDir: string): void {
    for (const suffix of ['', '.wal'])
      if (existsSync(`${h.config.warehousePath}${suffix}`))
        copyFileSync(`${h.config.warehousePath}${suffix}`, join(dataDir, `warehouse.duckdb${suffix}`));
  }
  const period = ['--from', '2026-10-30', '--to', '2026-10-31'];

  it('a default report folder that cannot be made: says why and to use --out DIR (exit 2)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'report-no-folder-'));
    try {
      copyWarehouseTo(dataDir);
      writeFileSync(join(dataDir, 'reports'), 'a file where the reports folder should be');
      const env = { ...h.env, REPORTER_DATA_DIR: dataDir };
      const args = ['summary', ...period];
      const run = async (extra: string[]) => {
        const err: string[] = [];
        const io = { out: () => {}, err: (l: string) => err.push(l), isTty: false };
        const code = await runReport([...args, ...extra], io, {
          env,
          now: () => h.running.emulator.now(),
          log: silentLogger(),
        }).catch((e) => {
          err.push(String(e.message));
          return (e as { exitCode?: number }).exitCode ?? 1;
        });
        return { code, err: err.join('\n') };
      };
      const refused = await run([]);
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(`cannot create the report folder ${join(dataDir, 'reports')}`);
      expect(refused.err).toMatch(/REPORTER_DATA_DIR\): a file \(not a folder\) is in the way.*--out DIR/);
      // the advice works: another folder takes the report
      const elsewhere = join(dataDir, 'elsewhere');
      expect((await run(['--out', elsewhere])).code).toBe(0);
      expect(readdirSync(elsewhere).filter((name) => name.endsWith('.xlsx'))).toHaveLength(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a read-only data directory (a read-only tmpfs): says so and to use --out DIR (exit 2)', async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'report-read-only-'));
    const mount = (...args: string[]) => execFileSync('mount', args, { stdio: 'ignore' });
    try {
      try {
        mount('-t', 'tmpfs', '-o', 'size=64m,mode=0755', 'tmpfs', dataDir);
      } catch {
        t.skip('mount is not permitted here: the read-only case is covered by the test above');
        return;
      }
      copyWarehouseTo(dataDir);
      mount('-o', 'remount,ro', dataDir);
      expect(() => mkdirSync(join(dataDir, 'probe'))).toThrow(/EROFS/);
      const err: string[] = [];
      const io = { out: () => {}, err: (l: string) => err.push(l), isTty: false };
      const env = { ...h.env, REPORTER_DATA_DIR: dataDir };
      const code = await runReport(['summary', ...period], io, {
        env,
        now: () => h.running.emulator.now(),
        log: silentLogger(),
      }).catch((e) => {
        err.push(String(e.message));
        return (e as { exitCode?: number }).exitCode ?? 1;
      });
      expect(code, err.join('\n')).toBe(2);
      expect(err.join('\n')).toMatch(/cannot create the report folder .*read-only file system.*--out DIR/);
    } finally {
      try {
        execFileSync('umount', [dataDir], { stdio: 'ignore' });
      } catch {
        // not mounted
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
