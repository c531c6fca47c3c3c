// Analysts are never locked out: real CLI child processes read the warehouse while a real `sync --full`
// child writes it (every read command at once), while another process reads it, during an export, after a
// writer was killed with -9, and from a read-only file system, where a write command exits 2 at start.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/run-cli.js';
import {
  ageRunningLeases,
  createHarness,
  expectWarehouseEqualsTruth,
  type Harness,
} from '../helpers/sync-harness.js';

const HOUR = 3_600_000;
/**
 * The data a test's readers read is synced in the test's own process, not by a CLI child (whose start costs
 * ~1 CPU-s and proves nothing here), in windows of two days: a sync's cost grows with its windows.
 */
const WHOLE_DAYS = { REPORTER_WINDOW_HOURS: '48' };
const t0 = Date.now();
const mark = (what: string) =>
  process.env['TRACE_TEST'] && console.log(`${((Date.now() - t0) / 1000).toFixed(1)} s ${what}`);
let h: Harness | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
  await h?.close();
  h = undefined;
});

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

function spawnCli(args: string[], env: Record<string, string>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['bin/reporter-etl.js', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  children.push(child);
  return Object.assign(child, { output: () => output });
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every command that only reads, with the arguments that make it read the synced data. */
const READERS: string[][] = [
  ['stats', '--json'],
  ['runs', '--json'],
  ['report', 'summary', '--from', '2020-01-01', '--to', '2040-01-01', '--json'],
  ['schedule', '--list', '--json'],
  ['label-sessions', '--label', 'Спам', '--sql', "select session_id from sessions where channel_type = 'vk'"],
  ['platform-report', 'list', '--json'],
  ['sql', '--json', 'select count(*) as sessions from sessions'],
];

function expectReaderOk(r: CliResult, args: string[]): void {
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  expect(r.stderr).not.toMatch(/one writer/i);
}

/** A process that holds the warehouse READ_ONLY (another reader) until killed. */
async function holdAsReader(path: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import { DuckDBInstance } from '@duckdb/node-api'; const i = await DuckDBInstance.create(process.argv[1], { access_mode: 'READ_ONLY' }); await i.connect(); process.stdout.write('held'); setInterval(() => {}, 1000);",
      path,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise((resolve) => child.stdout?.once('data', resolve));
  return child;
}

/** Sessions started in [from, to) as `stats --json` counts them. */
async function statsSessions(env: Record<string, string>, from: number, to: number): Promise<number> {
  const r = await runCli(
    ['stats', '--json', '--from', new Date(from).toISOString(), '--to', new Date(to).toISOString()],
    env,
  );
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).totals.sessions;
}

describe('readers beside writers', () => {
  it('every read command works while a full sync runs, and sees committed data', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 300 },
      env: { REPORTER_WINDOW_HOURS: '8', REPORTER_LOCK_WAIT_SECONDS: '30' },
    });
    const e = h.running.emulator;
    // the data the readers see committed, synced in this process (whole days: fewer windows to commit)
    expect((await h.sync({}, WHOLE_DAYS)).status).toBe('success');
    const to = e.now() - 10 * 60_000;
    const from = to - 4 * 24 * HOUR;
    const truth = h.truth(from, to).sessionIds.length;
    // the full sync commits a window now and then while its slow requests wait: slow enough to outlast the
    // seven readers on a loaded 2-core machine (400 ms a request did not, once: its ~100 requests since the
    // statuses reports finished first); the faults are cleared once the readers are checked
    e.faults.script({ type: 'slow', delayMs: 1_500, times: 100_000 });
    mark('first sync done');
    const sync = spawnCli(['sync', '--full', '--json'], h.env);
    const startCount = e.requestCount;
    await waitFor(() => e.requestCount - startCount >= 8 || sync.exitCode !== null, 60_000);
    mark('full sync started');
    const results = await Promise.all(READERS.map((args) => runCli(args, h!.env)));
    mark('readers done');
    for (const [n, r] of results.entries()) expectReaderOk(r, READERS[n]!);
    // two at once, again
    const [a, b] = await Promise.all([
      runCli(['stats', '--json'], h.env),
      runCli(['stats', '--json'], h.env),
    ]);
    expectReaderOk(a, ['stats']);
    expectReaderOk(b, ['stats']);
    expect(sync.exitCode, 'the sync ended before the readers: make it slower').toBeNull();
    const during = await statsSessions(h.env, from, to);
    expect(during).toBe(truth);
    const runs = JSON.parse(results[1]!.stdout).runs;
    expect(runs[0]).toMatchObject({ job: 'sync', status: 'running' });
    mark('checks done');
    e.faults.clear();
    expect(await exited(sync), sync.output()).toBe(0);
    mark('sync done');
    expect(await statsSessions(h.env, from, to)).toBe(truth);
  }, 240_000);

  it('readers never wait for each other: a read command runs while another process reads', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 300 },
      env: { REPORTER_LOCK_WAIT_SECONDS: '2' },
    });
    expect((await h.sync({}, WHOLE_DAYS)).status).toBe('success');
    await holdAsReader(h.config.warehousePath);
    for (const args of [
      ['stats', '--json'],
      ['runs', '--json'],
    ])
      expectReaderOk(await runCli(args, h.env), args);
    // an export is a reader too: stats runs beside it
    const [exported, stats] = await Promise.all([
      runCli(
        ['report', 'messages', '--from', '2020-01-01', '--to', '2040-01-01', '--json', '--out', h.dir],
        h.env,
      ),
      runCli(['stats', '--json'], h.env),
    ]);
    expectReaderOk(exported, ['report', 'messages']);
    expectReaderOk(stats, ['stats']);
    // a writer waits for the readers, then says who holds the file
    const sync = await runCli(['sync'], h.env);
    expect(sync.code).toBe(75);
    expect(sync.stderr).toMatch(/locked by/);
  }, 90_000);

  it('kill -9 of a sync while readers run: readers go on, the next sync recovers to the ground truth', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 300 },
      env: { REPORTER_WINDOW_HOURS: '6', REPORTER_LOCK_WAIT_SECONDS: '30' },
    });
    const e = h.running.emulator;
    e.faults.script({ type: 'slow', delayMs: 300, times: 100_000 });
    const sync = spawnCli(['sync', '--json'], h.env);
    // wait for committed windows: the reader needs a warehouse (no CLI child tries before its file is there)
    await waitFor(
      async () =>
        existsSync(h!.config.warehousePath) && (await runCli(['runs', '--json'], h!.env)).code === 0,
      60_000,
    );
    mark('runs ok');
    let stop = false;
    const codes: number[] = [];
    const loop = (async () => {
      while (!stop) {
        const r = await runCli(['stats', '--json'], h!.env);
        codes.push(r.code);
        expectReaderOk(r, ['stats']);
      }
    })();
    await waitFor(() => codes.length >= 1, 60_000);
    mark('one stats');
    expect(sync.exitCode).toBeNull();
    sync.kill('SIGKILL');
    await exited(sync);
    await waitFor(() => codes.length >= 3, 60_000);
    stop = true;
    await loop;
    e.faults.clear();
    expect(codes.every((c) => c === 0)).toBe(true);
    expectReaderOk(await runCli(['runs', '--json'], h.env), ['runs']);
    mark('killed and read');
    // as if the killed sync had run on another host (its death cannot be seen from here): its run keeps its
    // lease until its heartbeat is stale, and a sync of the same project started meanwhile refuses (75)
    await h.withWarehouse((w) =>
      w.query("UPDATE etl_runs SET heartbeat_at = now(), host = 'another-host' WHERE status = 'running'"),
    );
    const refused = await runCli(['sync', '--json'], h.env);
    expect(refused.code, refused.stderr).toBe(75);
    expect(refused.stderr).toMatch(/another sync of project \S+ is running: run \S+ \(PID \d+ on /);
    await ageRunningLeases(h);
    const next = await runCli(['sync', '--json'], h.env);
    mark('next sync');
    expect(next.code, next.stderr).toBe(0);
    const to = e.now() - 5 * 60_000;
    const from = to - 4 * 24 * HOUR;
    await expectWarehouseEqualsTruth(h, from, to, ['sessionIds', 'messageIds']);
  }, 240_000);
});

/** Runs the CLI with `dir` mounted read-only at `at` (a private mount namespace), or with write bits cleared. */
function readOnlyRunner(
  dir: string,
  at: string,
): ((args: string[], env: Record<string, string>) => Promise<CliResult>) | undefined {
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    chmodSync(join(dir, 'warehouse.duckdb'), 0o444);
    chmodSync(dir, 0o555);
    return (args, env) => runCli(args, { ...env, REPORTER_DATA_DIR: dir });
  }
  // root ignores permission bits: a read-only bind mount is the only honest read-only file system
  const script = 'mount --bind "$1" "$2" && mount -o remount,ro,bind "$2" && shift 2 && exec "$@"';
  try {
    execFileSync('unshare', ['-m', 'sh', '-c', `${script}`, 'sh', dir, at, 'true'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return async (args, env) => {
    const { execFile } = await import('node:child_process');
    return new Promise((resolve) => {
      execFile(
        'unshare',
        ['-m', 'sh', '-c', script, 'sh', dir, at, process.execPath, 'bin/reporter-etl.js', ...args],
        { env: { ...process.env, LOG_LEVEL: 'warn', ...env, REPORTER_DATA_DIR: at } },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  };
}

describe('a read-only warehouse', () => {
  it('is readable by every read command; a write command exits 2 at start naming REPORTER_DATA_DIR', async (ctx) => {
    h = await createHarness({ realClock: true, emulator: { sessions: 300 } });
    expect((await h.sync({}, WHOLE_DAYS)).status).toBe('success');
    const base = join(tmpdir(), `reporter-etl-ro-${process.pid}-${Date.now()}`);
    const copy = join(base, 'data');
    const at = join(base, 'mounted');
    mkdirSync(at, { recursive: true });
    cpSync(h.dir, copy, { recursive: true });
    try {
      const run = readOnlyRunner(copy, at);
      if (!run) return ctx.skip();
      const expected = await runCli(['stats', '--json'], h.env);
      const out = join(base, 'reports');
      const readers = [
        ['stats', '--json'],
        ['runs', '--json'],
        ['schedule', '--list', '--json'],
        ['report', 'summary', '--from', '2020-01-01', '--to', '2040-01-01', '--json', '--out', out],
      ];
      for (const args of readers) {
        const r = await run(args, h.env);
        expectReaderOk(r, args);
        if (args[0] === 'stats')
          expect(JSON.parse(r.stdout).totals).toEqual(JSON.parse(expected.stdout).totals);
      }
      const sync = await run(['sync'], h.env);
      expect(sync.code, sync.stderr).toBe(2);
      expect(sync.stderr).toMatch(/REPORTER_DATA_DIR/);
      expect(sync.stderr).not.toMatch(/IO Error/);
    } finally {
      chmodSync(copy, 0o755);
      rmSync(base, { recursive: true, force: true });
    }
  }, 90_000);
});
