// The management commands end to end: the real CLI in a child process against the emulator (real clock),
// configuration from the environment, --json on stdout, exit codes, and the token never printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

const cli = runCli;

const QUERY = "select session_id from sessions where channel_type = 'telegram'";
let h: Harness;

describe('management commands in a child process', () => {
  beforeAll(async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 300, days: 2 } });
    expect((await cli(['sync'], h.env)).code).toBe(0);
  });
  afterAll(() => h?.close());

  it('--apply --json writes, then a second run writes nothing; the token is never printed', async () => {
    const args = ['label-sessions', '--label', 'Спам', '--sql', QUERY, '--apply', '--json'];
    const applied = await cli(args, h.env);
    expect(applied.code, applied.stderr).toBe(0);
    const summary = JSON.parse(applied.stdout);
    expect(summary.written).toBeGreaterThan(0);
    const p = h.running.emulator.project('shop-bot');
    const now = h.running.emulator.now();
    for (const row of await h.withWarehouse((w) => w.query(QUERY)))
      expect(p.sessionLabelIds(p.sessionIndex(String(row['session_id']))!, now)).toContain(4);
    const again = await cli(args, h.env);
    expect(JSON.parse(again.stdout)).toMatchObject({ written: 0, toWrite: 0 });
    expect(applied.stdout + applied.stderr + again.stderr).not.toContain(h.env['REPORTER_TOKEN']);
  });

  it('exits 2 on bad input: a query without the id column, an unknown client', async () => {
    const bad = await cli(['label-sessions', '--label', 'Спам', '--sql', 'select 1 as n'], h.env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/must return a column named session_id/);
    const client = await cli(['clients', 'block', '--client', 'nobody', '--bot', 'x'], h.env);
    expect(client.code).toBe(2);
    expect(client.stderr).toMatch(/no client with this id/);
  });

  it('prints JSON for scripts and teaches with --help', async () => {
    const labels = await cli(['labels', 'list', '--json'], h.env);
    expect(labels.code, labels.stderr).toBe(0);
    expect(JSON.parse(labels.stdout).sessionLabels).toHaveLength(4);
    const experiments = await cli(['experiments', 'list', '--json'], h.env);
    const keys = JSON.parse(experiments.stdout).experiments.map((e: any) => e.key);
    expect(keys).toEqual(['greeting-test', 'menu-layout']);
    const help = await cli(['label-messages', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--group NAME[\s\S]*Exit codes:[\s\S]*Examples:/);
  });
});
