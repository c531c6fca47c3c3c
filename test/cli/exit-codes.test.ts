// The exit codes of the documented table (README, docs/errors.md) where a sync met them otherwise (issue 43,
// item 7): a full disk during a sync (a real tmpfs of 3 MB as the data folder; skipped where mount is not
// permitted) exits 75, saying to make room, and the run after the room is made resumes and ends exact; a
// warehouse migrated by a newer version exits 2 (the version or REPORTER_DATA_DIR must change).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('sync on a full disk', () => {
  it('exits 75 saying to make room; once there is room, the next sync resumes and ends exact', async (ctx) => {
    const disk = mkdtempSync(join(tmpdir(), 'sync-full-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m,mode=0755', 'tmpfs', disk], { stdio: 'pipe' });
    } catch (error) {
      rmSync(disk, { recursive: true, force: true });
      ctx.skip(`mount -t tmpfs is not permitted here (${String((error as Error).message).split('\n')[0]})`);
    }
    try {
      h = await createHarness({ realClock: true, emulator: { sessions: 3000, days: 3 } });
      const env = { ...h.env, REPORTER_DATA_DIR: disk };
      const full = await runCli(['sync'], env);
      expect(full.code, full.stderr).toBe(75);
      expect(full.stderr).toMatch(
        /the disk of the warehouse \(REPORTER_DATA_DIR\) is full .*No space left on device/,
      );
      expect(full.stderr).toMatch(/Make room on that disk, then run the command again/);
      execFileSync('mount', ['-o', 'remount,size=256m', disk], { stdio: 'pipe' });
      const resumed = await runCli(['sync', '--json'], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      const held = await runCli(['sql', '--format', 'json', 'select count(*) as n from sessions'], env);
      const [to, from] = [Date.parse(JSON.parse(resumed.stdout).runs[0].to), 0];
      expect(JSON.parse(held.stdout)[0].n).toBe(h.truth(from, to).sessions);
    } finally {
      spawnSync('umount', [disk]);
      rmSync(disk, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('a warehouse migrated by a newer version', () => {
  it('sync and stats exit 2, naming the upgrade', async () => {
    h = await createHarness({ realClock: true, emulator: { sessions: 100, days: 1 } });
    const warehouse = await openWarehouse({ path: h.config.warehousePath });
    await warehouse.query("INSERT INTO schema_migrations VALUES (999, 'from_the_future', now())");
    await warehouse.close();
    for (const command of [['sync'], ['stats']]) {
      const result = await runCli(command, h.env);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/written by a newer version\. Upgrade reporter-etl/);
    }
  }, 60_000);
});
