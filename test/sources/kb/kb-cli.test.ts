// The real CLI against the knowledge base emulator: `kb sync` (text and --json), `report kb-health`, `runs`,
// `run kb-sync`, the usage errors; and the secret: no key value (the project key, the administrative key, a
// refused key) appears in stdout, stderr with debug JSON logs, or anywhere in the warehouse file.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KB_ADMIN_KEY, DEFAULT_KB_PROJECT_KEY } from '../../../src/emulator/kb/kb-options.js';
import { KB_GENERATED_KEYS, KB_MAIN_PROJECT_ID } from '../../../src/emulator/kb/kb-world.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { runCli } from '../../helpers/run-cli.js';
import { listedField, readWorkbook, sheetNamed } from '../../report/read-workbook.js';
import { kbTruth } from './kb-truth.js';

let dir: string;
let running: RunningEmulator;
let env: Record<string, string>;
const SECRETS = [DEFAULT_KB_PROJECT_KEY, DEFAULT_KB_ADMIN_KEY, ...Object.values(KB_GENERATED_KEYS)];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-cli-'));
  running = await startEmulator({ sessions: 100, days: 1, now: Date.now() });
  env = {
    REPORTER_TOKEN: '',
    REPORTER_CONFIG: '',
    REPORTER_DATA_DIR: dir,
    REPORTER_KB_BASE_URL: running.kbUrl,
    REPORTER_KB_KEY: DEFAULT_KB_PROJECT_KEY,
    REPORTER_KB_ADMIN_KEY: DEFAULT_KB_ADMIN_KEY,
    LOG_LEVEL: 'debug',
    LOG_FORMAT: 'json',
  };
});
afterAll(async () => {
  await running.close();
  rmSync(dir, { recursive: true, force: true });
});

function expectNoSecret(text: string, where: string): void {
  for (const secret of SECRETS) expect(text.includes(secret), `${where} holds a key value`).toBe(false);
}

describe('reporter-etl kb', () => {
  const outputs: string[] = [];

  it('kb sync stores a snapshot and prints it; --json gives its summary', async () => {
    const text = await runCli(['kb', 'sync'], env);
    outputs.push(text.stdout, text.stderr);
    expect(text.code, text.stderr).toBe(0);
    const truth = kbTruth(running.emulator);
    expect(text.stdout).toMatch(/Knowledge base project support-kb \(id 7001\): snapshot /);
    expect(text.stdout).toContain(`${truth.sources.length} sources`);
    expect(text.stdout).toContain(`API keys ${truth.apiKeys.length}`);

    const json = await runCli(['kb', 'sync', '--json'], env);
    outputs.push(json.stdout, json.stderr);
    expect(json.code, json.stderr).toBe(0);
    const summary = JSON.parse(json.stdout);
    expect(summary).toMatchObject({
      status: 'success',
      project: { id: KB_MAIN_PROJECT_ID, name: 'support-kb' },
      sources: truth.sources.length,
      integrations: truth.integrations.length,
      segments: truth.segments.length,
      apiKeys: truth.apiKeys.length,
      accessGroups: truth.accessGroups.length,
      rejects: 0,
    });
    const runs = await runCli(['runs', '--job', 'kb-sync', '--json'], env);
    expect(runs.code, runs.stderr).toBe(0);
    const listed = JSON.parse(runs.stdout);
    const rows = Array.isArray(listed) ? listed : listed.runs;
    expect(rows.filter((r: any) => r.project === 'kb:support-kb' && r.status === 'success')).toHaveLength(2);
  });

  it('a refused key fails with kb.auth (exit 1) naming the setting, never the key', async () => {
    const r = await runCli(['kb', 'sync'], { ...env, REPORTER_KB_KEY: 'not-a-key-of-this-service' });
    outputs.push(r.stdout, r.stderr);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refused REPORTER_KB_KEY \(the project key\) with 401/);
    expect(r.stderr).not.toContain('not-a-key-of-this-service');
    const revoked = await runCli(['kb', 'sync'], { ...env, REPORTER_KB_KEY: KB_GENERATED_KEYS.revoked });
    outputs.push(revoked.stdout, revoked.stderr);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/403/);
  });

  it('usage: no REPORTER_KB_KEY, no subcommand, an unknown one (exit 2); --help teaches', async () => {
    // refused before the data folder is touched: nothing is created in a new one
    const fresh = join(dir, 'never-created');
    const none = await runCli(['kb', 'sync'], { ...env, REPORTER_KB_KEY: '', REPORTER_DATA_DIR: fresh });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/REPORTER_KB_KEY is not set/);
    expect(existsSync(fresh)).toBe(false);
    // a key with a line break is refused at load (exit 2), named, its value never shown, nothing created
    for (const setting of ['REPORTER_KB_KEY', 'REPORTER_KB_ADMIN_KEY', 'REPORTER_TOKEN']) {
      const broken = await runCli(['kb', 'sync'], {
        ...env,
        REPORTER_DATA_DIR: fresh,
        [setting]: 'SECRETA\nB',
      });
      expect(broken.code, broken.stderr).toBe(2);
      expect(broken.stderr).toContain(`${setting}: holds a control character`);
      expect(`${broken.stdout}${broken.stderr}`).not.toContain('SECRETA');
      expect(existsSync(fresh)).toBe(false);
    }
    const bare = await runCli(['kb'], env);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/give a subcommand: sync/);
    const unknown = await runCli(['kb', 'snapshot'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no subcommand snapshot/);
    const help = await runCli(['kb', 'sync', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/reporter-etl kb sync \[--json\]/);
    expect(help.stdout).toMatch(/REPORTER_KB_ADMIN_KEY/);
    expect(help.stdout).toMatch(/Exit codes/);
    const job = await runCli(['run', 'kb-sync', '--json'], { ...env, REPORTER_KB_KEY: '' });
    expect(job.code).toBe(2);
  });

  it('run kb-sync takes a snapshot as the job; report kb-health writes the workbook', async () => {
    const job = await runCli(['run', 'kb-sync', '--json'], env);
    outputs.push(job.stdout, job.stderr);
    expect(job.code, job.stderr).toBe(0);
    expect(JSON.parse(job.stdout)).toMatchObject({ job: 'kb-sync', status: 'success' });
    const today = new Date().toISOString().slice(0, 10);
    const report = await runCli(
      ['report', 'kb-health', '--from', today, '--out', dir, '--json', '--format', 'xlsx'],
      env,
    );
    outputs.push(report.stdout, report.stderr);
    expect(report.code, report.stderr).toBe(0);
    const { sheets } = await readWorkbook(JSON.parse(report.stdout).path);
    const health = sheetNamed(sheets, 'Health');
    const truth = kbTruth(running.emulator);
    expect(listedField(health, 'Sources').value).toBe(truth.sources.length);
    expect(listedField(health, 'Failed to ingest').value).toBe(
      truth.sources.filter((s) => s['status'] === 'FAILED_TO_INGEST').length,
    );

    // without --from/--to (as kb sync --help suggests) the report shows the snapshot just taken
    const latest = await runCli(['report', 'kb-health', '--out', join(dir, 'default'), '--json'], env);
    outputs.push(latest.stdout, latest.stderr);
    expect(latest.code, latest.stderr).toBe(0);
    const written = JSON.parse(latest.stdout);
    expect(written.path).toContain(`kb-health_${today}_${today}.xlsx`);
    const latestHealth = sheetNamed((await readWorkbook(written.path)).sheets, 'Health');
    expect(listedField(latestHealth, 'Sources').value).toBe(truth.sources.length);

    // --project does not apply to the knowledge base reports: said so (exit 2), not checked against Reporter data
    for (const id of ['kb-health', 'kb-eval']) {
      const r = await runCli(['report', id, '--project', 'shop-bot'], env);
      expect(r.code, id).toBe(2);
      expect(r.stderr, id).toContain(`--project does not apply to the ${id} report`);
      expect(r.stderr, id).not.toMatch(/run reporter-etl sync/);
    }
  });

  it('no key value in any output, debug log line or the warehouse file', () => {
    for (const [n, text] of outputs.entries()) expectNoSecret(text, `output ${n}`);
    expect(outputs.join('\n')).toMatch(/"level":20/); // debug lines were written and checked
    for (const file of readdirSync(dir).filter((f) => f.startsWith('warehouse.duckdb'))) {
      const bytes = readFileSync(join(dir, file)).toString('latin1');
      expect(bytes.length).toBeGreaterThan(0);
      expectNoSecret(bytes, file);
      expect(bytes).toContain('support-kb'); // the file does hold the snapshot
    }
  });
});
