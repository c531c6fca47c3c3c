// A job that lacks a setting it needs (REPORTER_LAKE_DIR, REPORTER_KB_KEY, REPORTER_CHATAPI_CHANNELS) is off by
// one rule everywhere: `schedule --list` shows "off: needs <setting>", the scheduler never runs it (so no run
// record), and `run <job>` exits 2 naming the setting. The settings each job needs are listed here by hand, not
// read from the jobs under test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/registry.js';
import { loadConfig } from '../../src/config.js';
import { resolveScheduledJobs } from '../../src/schedule/resolve-scheduled-jobs.js';
import { runCli } from '../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'job-settings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every job's settings unset: the data folder is a new empty one, no token needed for these. */
const bare = {
  REPORTER_DATA_DIR: join(dir, 'data'),
  REPORTER_TOKEN: '',
  REPORTER_CONFIG: '',
  REPORTER_LAKE_DIR: '',
  REPORTER_KB_KEY: '',
  REPORTER_CHATAPI_CHANNELS: '',
  REPORTER_JOBS: '',
};
const NEEDS = {
  'export-parquet': 'REPORTER_LAKE_DIR',
  'kb-sync': 'REPORTER_KB_KEY',
  'chatapi-events': 'REPORTER_CHATAPI_CHANNELS',
} as const;

describe('a job lacking a setting it needs is off', () => {
  it('schedule --list shows it as off, naming the setting, in text and JSON', async () => {
    const json = await runCli(['schedule', '--list', '--json'], bare);
    expect(json.code, json.stderr).toBe(0);
    const byJob = Object.fromEntries(JSON.parse(json.stdout).jobs.map((j: any) => [j.job, j]));
    for (const [job, setting] of Object.entries(NEEDS))
      expect(byJob[job], job).toMatchObject({ enabled: false, needs: setting, nextRun: null });
    expect(byJob['retention']).toMatchObject({ enabled: true, needs: null });

    const text = await runCli(['schedule', '--list'], bare);
    expect(text.code, text.stderr).toBe(0);
    for (const [job, setting] of Object.entries(NEEDS))
      expect(text.stdout).toMatch(new RegExp(`^${job}\\s+off: needs ${setting}\\s`, 'm'));
    expect(text.stdout).toMatch(/^retention\s+yes\s/m);

    const withLake = await runCli(['schedule', '--list', '--json'], {
      ...bare,
      REPORTER_LAKE_DIR: join(dir, 'lake'),
    });
    const lake = JSON.parse(withLake.stdout).jobs.find((j: any) => j.job === 'export-parquet');
    expect(lake).toMatchObject({ enabled: true, needs: null });
  }, 60_000);

  it('run <job> exits 2 naming the setting it needs, and records no run', async () => {
    for (const [job, setting] of Object.entries(NEEDS)) {
      const run = await runCli(['run', job], bare);
      expect(run.code, `${job}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toContain(`${setting}: is not set; the job ${job} needs it`);
    }
    const runs = await runCli(['runs', '--json'], bare);
    // no warehouse was even created for a refused run
    expect(runs.stdout + runs.stderr).not.toMatch(/export-parquet|kb-sync|chatapi-events/);
  }, 60_000);

  it('the scheduler is handed no such job', () => {
    const config = loadConfig(bare, { requireToken: false });
    const scheduled = resolveScheduledJobs(config, JOBS);
    const off = scheduled.filter((s) => !s.enabled).map((s) => [s.job.id, s.needs]);
    expect(Object.fromEntries(off)).toEqual(NEEDS);
  });
});
