// `reporter-etl export parquet` and the export-parquet job from the command line: usage errors name what is
// missing; a run writes the lake and its manifest; the job writes to REPORTER_LAKE_DIR.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

let h: Harness | undefined;
let lake = mkdtempSync(join(tmpdir(), 'lake-cli-'));
afterEach(async () => {
  await h?.close();
  h = undefined;
  rmSync(lake, { recursive: true, force: true });
  lake = mkdtempSync(join(tmpdir(), 'lake-cli-'));
});

describe('reporter-etl export parquet', () => {
  it('says what is missing, writes the lake, and the job writes REPORTER_LAKE_DIR', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 300, days: 2 } });
    const none = await runCli(['export', 'parquet', '--out', lake], h.env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no warehouse .* run reporter-etl sync first/);
    // the sync is the setup, run in-process (a child costs ~0.7 CPU-s before it starts): the exports are the CLI
    expect((await h.sync()).status).toBe('success');
    const noTarget = await runCli(['export'], h.env);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toMatch(/export parquet --out DIR/);
    expect((await runCli(['export', 'csv'], h.env)).stderr).toMatch(
      /unknown target \(known: parquet, clickhouse\)/,
    );
    expect((await runCli(['export', 'parquet'], h.env)).stderr).toMatch(/--out DIR/);
    // a folder that cannot be made: a usage error naming the option (under a file; under /proc, where Node 20's
    // own recursive mkdir would spin forever)
    writeFileSync(join(lake, 'a-file'), 'x');
    const underFile = await runCli(['export', 'parquet', '--out', join(lake, 'a-file', 'lake')], h.env);
    expect(underFile.code).toBe(2);
    expect(underFile.stderr).toMatch(/--out: cannot make the lake's folder .*a-file\/lake \(ENOTDIR/);
    if (process.platform === 'linux') {
      const proc = await runCli(['run', 'export-parquet'], {
        ...h.env,
        REPORTER_LAKE_DIR: '/proc/reporter-lake',
      });
      expect(proc.code).toBe(2);
      expect(proc.stderr).toMatch(
        /REPORTER_LAKE_DIR: cannot make the lake's folder \/proc\/reporter-lake \(ENOENT/,
      );
    }

    // a project that is not a plain name, or one the warehouse does not hold: exit 2, nothing written
    const outside = await runCli(
      ['export', 'parquet', '--out', join(lake, 'a'), '--project', '../../x'],
      h.env,
    );
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/--project "\.\.\/\.\.\/x": not a project's name \(it holds a slash\)/);
    const unknown = await runCli(
      ['export', 'parquet', '--out', join(lake, 'a'), '--project', 'shopbot'],
      h.env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/holds no data of this project \(it holds shop-bot\)/);
    expect(existsSync(join(lake, 'a'))).toBe(false);
    expect(existsSync(join(lake, 'x.json'))).toBe(false);

    const run = await runCli(['export', 'parquet', '--out', join(lake, 'a'), '--json'], h.env);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.projects).toEqual(['shop-bot']);
    const manifest = JSON.parse(readFileSync(join(lake, 'a', '_manifest.json'), 'utf8'));
    expect(manifest.projects[0].watermark).toMatch(/^\d{4}-/);

    const noDir = await runCli(['run', 'export-parquet'], h.env);
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/REPORTER_LAKE_DIR/);
    const job = await runCli(['run', 'export-parquet'], { ...h.env, REPORTER_LAKE_DIR: join(lake, 'b') });
    expect(job.code, job.stderr).toBe(0);
    expect(existsSync(join(lake, 'b', 'sessions', 'project=shop-bot'))).toBe(true);
  }, 120_000);
});

describe('reporter-etl export parquet killed midway', () => {
  it('the next run makes the lake exact, and a glob never reads a file being written', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 3000, days: 20 },
      // the volume is what makes the export long enough to kill; the sync (setup, in-process) in week-long
      // windows: a commit each, half the CPU of 12-hour ones, the same rows
      env: { REPORTER_HISTORY_DAYS: '21', REPORTER_WINDOW_HOURS: '168' },
    });
    expect((await h.sync()).status).toBe('success');
    const out = join(lake, 'killed');
    const child = spawn(process.execPath, ['bin/reporter-etl.js', 'export', 'parquet', '--out', out], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...h.env },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 60_000;
    while (!existsSync(join(out, 'sessions')) && child.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    expect(child.exitCode, 'the export ended before it could be killed').toBeNull();
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const again = await runCli(['export', 'parquet', '--out', out, '--json'], h.env);
    expect(again.code, again.stderr).toBe(0);
    // every session of the warehouse once in the lake, read with a plain glob
    const counted = await runCli(['sql', '--format', 'json', 'select count(*) as n from sessions'], h.env);
    // read with DuckDB directly (the sql command's sandbox reads no file)
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    try {
      const rows = (
        await c.runAndReadAll(`select count(*) from read_parquet('${out}/sessions/**/*.parquet')`)
      ).getRowsJS();
      expect(Number(rows[0]?.[0])).toBe(JSON.parse(counted.stdout)[0].n);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  }, 180_000);
});
