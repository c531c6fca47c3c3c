// `reporter-etl export parquet` and the export-parquet job from the command line: usage errors name what is
// missing; a run writes the lake and its manifest; the job writes to REPORTER_LAKE_DIR.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
const lake = mkdtempSync(join(tmpdir(), 'lake-cli-'));
afterEach(async () => {
  await h?.close();
  h = undefined;
  rmSync(lake, { recursive: true, force: true });
});

describe('reporter-etl export parquet', () => {
  it('says what is missing, writes the lake, and the job writes REPORTER_LAKE_DIR', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 300, days: 2 } });
    const none = await runCli(['export', 'parquet', '--out', lake], h.env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no warehouse .* run reporter-etl sync first/);
    expect((await runCli(['sync'], h.env)).code).toBe(0);
    const noTarget = await runCli(['export'], h.env);
    expect(noTarget.code).toBe(2);
    expect(noTarget.stderr).toMatch(/export parquet --out DIR/);
    expect((await runCli(['export', 'csv'], h.env)).stderr).toMatch(
      /unknown target \(known: parquet, clickhouse\)/,
    );
    expect((await runCli(['export', 'parquet'], h.env)).stderr).toMatch(/--out DIR/);

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
