// A report's temporary file never outlives its writer: a full disk (a real 64 KB tmpfs, skipped when mount is not
// permitted) fails every report with exit 1, our message naming the file and no stack, and no .tmp left; a writer
// killed with -9 leaves its .tmp, which the next report sweeps; the sweep keeps live writers' files.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thisProcess } from '../../src/process/process-identity.js';
import { sweepStaleTemporaryFiles, temporaryFileName } from '../../src/report/sweep-temporary-files.js';
import { liveOwner, zombieOwner } from '../helpers/owner-processes.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';
import { readWorkbook } from './read-workbook.js';

const TZ = 'Europe/Moscow';
const PERIOD = ['--from', '2026-10-29', '--to', '2026-10-31', '--tz', TZ];
const FROM = Date.parse('2026-10-29T00:00:00+03:00');
const TO = Date.parse('2026-10-31T00:00:00+03:00');

let h: Harness;

beforeAll(async () => {
  h = await createHarness({ env: { REPORTER_SAFETY_LAG_MINUTES: '0' } });
  expect((await h.sync()).status).toBe('success');
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const temporaries = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.tmp'));

describe('report on a full disk', () => {
  let disk: string;
  let mounted: string | undefined;
  beforeAll(() => {
    disk = mkdtempSync(join(tmpdir(), 'reporter-etl-full-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk], { stdio: 'pipe' });
    } catch (error) {
      mounted = `mount -t tmpfs is not permitted here (${String((error as Error).message).split('\n')[0]})`;
      return;
    }
    mounted = '';
  });
  afterAll(() => {
    if (mounted === '') spawnSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  });

  for (const id of ['messages', 'sessions', 'summary']) {
    it(`${id}: exit 1, "no space left" naming the file, no stack, no temporary file`, async (ctx) => {
      if (mounted !== '') ctx.skip(mounted);
      const r = await runCli(['report', id, ...PERIOD, '--out', disk], h.env);
      expect(r.code, r.stderr).toBe(1);
      const file = join(disk, `${id}_2026-10-29_2026-10-30.xlsx`);
      expect(r.stderr).toContain(`reporter-etl report: cannot write ${file}: no space left on the device`);
      expect(r.stderr).not.toMatch(/^\s+at /m); // no stack
      expect(r.stderr).not.toMatch(/ENOSPC|triggerUncaughtException/);
      expect(readdirSync(disk)).toEqual([]);
    });
  }
});

describe('a writer killed with -9', () => {
  it('leaves its temporary file, which the next report removes; the new report is complete', async () => {
    const out = join(h.dir, 'killed');
    mkdirSync(out);
    const child: ChildProcess = spawn(
      process.execPath,
      ['bin/reporter-etl.js', 'report', 'messages', ...PERIOD, '--out', out],
      { env: { ...process.env, ...h.env, LOG_LEVEL: 'warn' }, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let finished = false;
    void exited.then(() => {
      finished = true;
    });
    // wait until the writer has started writing its temporary file (the report takes seconds), then kill it
    while (temporaries(out).length === 0 && !finished) await sleep(10);
    expect(finished, 'the report finished before its temporary file was seen').toBe(false);
    child.kill('SIGKILL');
    expect(await exited).toBeNull(); // killed: the process is gone (reaped), its pid no longer runs
    const stale = temporaries(out);
    expect(stale).toHaveLength(1);
    expect(stale[0]).toMatch(
      new RegExp(`^\\.messages\\.(?:[A-Za-z0-9_-]+\\.)?${child.pid}-\\d+\\.[0-9a-f]+\\.xlsx\\.tmp$`),
    );

    const r = await runCli(['report', 'messages', ...PERIOD, '--out', out, '--json'], h.env);
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out)).toEqual(['messages_2026-10-29_2026-10-30.xlsx']);
    const result = JSON.parse(r.stdout);
    const truth = h.truth(FROM, TO);
    expect(result.sheets).toEqual([{ name: 'Messages', rows: truth.messages }]);
    const { sheets } = await readWorkbook(result.path);
    expect(sheets[0]!.rows).toHaveLength(truth.messages);
  }, 120_000);
});

describe('sweepStaleTemporaryFiles', () => {
  it("removes dead writers' files and keeps live ones, other hosts' recent ones and other files", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-sweep-'));
    try {
      const host = temporaryFileName('x').split('.')[2]!;
      const dead = spawnSync(process.execPath, ['-e', '']).pid!; // exited and reaped
      const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
      try {
        const now = Date.now();
        const files = {
          deadHere: `.messages.${host}.${dead}.0a1b2c3d.xlsx.tmp`,
          liveHere: `.messages.${host}.${live.pid}.0a1b2c3d.xlsx.tmp`,
          ours: `.summary.${host}.${process.pid}.0a1b2c3d.xlsx.tmp`,
          otherHostRecent: `.messages.other-host.${dead}.0a1b2c3d.xlsx.tmp`,
          otherHostOld: `.sessions.other-host.${dead}.0a1b2c3d.xlsx.tmp`,
          hostlessRecent: `.messages.${dead}.0a1b2c3d.xlsx.tmp`,
          hostlessOld: `.labels.${dead}.0a1b2c3d.xlsx.tmp`,
          report: 'messages_2026-10-29_2026-10-30.xlsx',
          other: 'notes.tmp',
        };
        for (const name of Object.values(files)) writeFileSync(join(dir, name), 'x');
        const ago = (ms: number) => (now - ms) / 1000;
        utimesSync(join(dir, files.otherHostOld), ago(25 * 3_600_000), ago(25 * 3_600_000));
        utimesSync(join(dir, files.hostlessOld), ago(11 * 60_000), ago(11 * 60_000));
        utimesSync(join(dir, files.liveHere), ago(11 * 60_000), ago(11 * 60_000));

        const removed = sweepStaleTemporaryFiles(dir, undefined, now);
        expect(removed.sort()).toEqual([files.deadHere, files.hostlessOld, files.otherHostOld].sort());
        expect(readdirSync(dir).sort()).toEqual(
          [
            files.liveHere,
            files.ours,
            files.otherHostRecent,
            files.hostlessRecent,
            files.report,
            files.other,
          ].sort(),
        );
        expect(existsSync(join(dir, files.deadHere))).toBe(false);
      } finally {
        live.kill();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sweepStaleTemporaryFiles and the writer of a file of this host', () => {
  it("removes a zombie writer's file and one whose pid is another process now; keeps a live writer's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-sweep-owner-'));
    const zombie = await zombieOwner();
    const live = await liveOwner();
    try {
      const host = temporaryFileName('x').split('.')[2]!;
      const ticks = live.owner.startTicks!;
      const files = {
        zombie: `.messages.${host}.${zombie.owner.pid}.0a1b2c3d.xlsx.tmp`,
        reused: `.messages.${host}.${live.owner.pid}-${ticks + 1}.0a1b2c3d.xlsx.tmp`,
        live: `.messages.${host}.${live.owner.pid}-${ticks}.0a1b2c3d.xlsx.tmp`,
      };
      for (const name of Object.values(files)) writeFileSync(join(dir, name), 'x');
      expect(sweepStaleTemporaryFiles(dir).sort()).toEqual([files.reused, files.zombie].sort());
      expect(readdirSync(dir)).toEqual([files.live]);
      // this process's own name carries its start time
      expect(temporaryFileName('x')).toContain(`.${process.pid}-${thisProcess().startTicks}.`);
    } finally {
      await zombie.stop();
      await live.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
