// bin/reporter-etl.js run as a command (as `reporter-etl`, npm's bin link and a service run it): its first lines
// are read by sh, which sets glibc's MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_ (unless set) and execs node on the same file, so the CLI
// runs in the process that was started (same pid: signals reach it). A preload given through NODE_OPTIONS
// reports what the CLI's process sees.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_ENV } from '../../bench/run-child.js';

const BIN = resolve('bin/reporter-etl.js');
const dir = mkdtempSync(join(tmpdir(), 'bin-command-'));
const preload = join(dir, 'report-process.mjs');
writeFileSync(
  preload,
  'process.stderr.write(JSON.stringify({ arenas: process.env.MALLOC_ARENA_MAX ?? null, ' +
    "mmap: process.env.MALLOC_MMAP_THRESHOLD_ ?? null, pid: process.pid }) + '\\n');\n",
);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `command --version` with the preload; what the CLI's process saw, and the pid that was started. */
function runAsCommand(command: string, env: NodeJS.ProcessEnv = {}) {
  const { MALLOC_ARENA_MAX: _, MALLOC_MMAP_THRESHOLD_: _m, ...parent } = process.env;
  const r = spawnSync(command, ['--version'], {
    encoding: 'utf8',
    env: {
      ...parent,
      ...env,
      NODE_OPTIONS: `--import=${JSON.stringify(preload)}`,
      PATH: [dirname(process.execPath), process.env['PATH']].join(delimiter),
    },
  });
  const seen = JSON.parse(r.stderr.trim().split('\n')[0] ?? '{}') as {
    arenas: string | null;
    mmap: string | null;
    pid: number;
  };
  return { ...r, seen };
}

describe('bin/reporter-etl.js as a command', () => {
  it('runs the CLI with 2 malloc arenas, in the process that was started', () => {
    const r = runAsCommand(BIN);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^reporter-etl \d+\.\d+\.\d+/);
    expect(r.seen.arenas).toBe('2');
    expect(r.seen.pid).toBe(r.pid);
  });

  it('sets what the benchmark gives the children that run the CLI in a bare node (CLI_ENV)', () => {
    const { seen } = runAsCommand(BIN);
    expect({ MALLOC_ARENA_MAX: seen.arenas, MALLOC_MMAP_THRESHOLD_: seen.mmap }).toEqual(CLI_ENV);
  });

  it("keeps the user's own MALLOC_ARENA_MAX", () => {
    expect(runAsCommand(BIN, { MALLOC_ARENA_MAX: '8' }).seen.arenas).toBe('8');
    expect(runAsCommand(BIN, { MALLOC_MMAP_THRESHOLD_: '65536' }).seen.mmap).toBe('65536');
  });

  it('works through a link to it, as npm links its bin', () => {
    const link = join(dir, 'reporter-etl');
    symlinkSync(BIN, link);
    const r = runAsCommand(link);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^reporter-etl /);
    expect(r.seen.arenas).toBe('2');
  });

  it('run by node directly, the same CLI without the setting', () => {
    const r = spawnSync(process.execPath, [BIN, '--version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^reporter-etl /);
  });
});
