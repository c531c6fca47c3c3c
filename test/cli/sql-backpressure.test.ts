// `reporter-etl sql` writes its rows at the pace of its reader (issue 43, item 7): with its stdout pipe not
// read for seconds, its memory stays flat (it grew about 40-80 MB a second, every row held for the pipe), and
// once read, every row is there; the wait for the reader does not count in --timeout; a writer that waits
// still gets the file from an output nobody reads (exit 75).
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';

const ROWS = 1_500_000;
/** About 230 MB of CSV: what an unread pipe would have held in memory. */
const QUERY = `select range as n, repeat('x', 150) as t from range(${ROWS})`;

let dir: string;
let child: ChildProcess | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sql-backpressure-'));
  await (await openWarehouse({ path: join(dir, 'warehouse.duckdb') })).close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  child = undefined;
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

describe('reporter-etl sql with a slow reader', () => {
  it('keeps its memory flat while its pipe is not read, and every row arrives once it is', async () => {
    child = spawn(process.execPath, ['bin/reporter-etl.js', 'sql', '--format', 'csv', QUERY], {
      env: { ...process.env, LOG_LEVEL: 'warn', REPORTER_DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pause();
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    await once(child.stdout!, 'readable');
    const samples: number[] = [];
    for (let i = 0; i < 6; i++) {
      await sleep(1_000);
      samples.push(rssMb(child.pid!));
    }
    // from the second sample on (the first may still see DuckDB start): flat, where it grew 40-80 MB a second
    const [, base, ...later] = samples as [number, number, ...number[]];
    expect(Math.max(...later) - base, `RSS each second: ${samples.join(', ')} MB`).toBeLessThan(30);
    let lines = 0;
    let last = '';
    child.stdout!.on('data', (d: Buffer) => {
      for (let i = d.indexOf(10); i >= 0; i = d.indexOf(10, i + 1)) lines++;
      last = d.toString('utf8').trimEnd().split('\n').at(-1) ?? last;
    });
    child.stdout!.resume();
    const [code] = await once(child, 'exit');
    expect(code, stderr).toBe(0);
    expect(lines).toBe(ROWS + 1);
    expect(last).toBe(`${ROWS - 1},${'x'.repeat(150)}`);
  }, 60_000);

  it('does not count the wait for its reader in --timeout', async () => {
    const rows = 100_000;
    child = spawn(
      process.execPath,
      [
        'bin/reporter-etl.js',
        'sql',
        '--format',
        'csv',
        '--timeout',
        '3',
        QUERY.replace(String(ROWS), String(rows)),
      ],
      {
        env: { ...process.env, LOG_LEVEL: 'warn', REPORTER_DATA_DIR: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout!.pause();
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    // 15 MB of rows, far more than a pipe holds: unread for longer than the limit
    await sleep(5_000);
    let lines = 0;
    child.stdout!.on('data', (d: Buffer) => {
      for (let i = d.indexOf(10); i >= 0; i = d.indexOf(10, i + 1)) lines++;
    });
    child.stdout!.resume();
    const [code] = await once(child, 'exit');
    expect(code, stderr).toBe(0);
    expect(lines).toBe(rows + 1);
  }, 60_000);

  it('gives the file to a writer that waits, though its output is not read (exit 75)', async () => {
    child = spawn(process.execPath, ['bin/reporter-etl.js', 'sql', '--format', 'csv', QUERY], {
      env: { ...process.env, LOG_LEVEL: 'warn', REPORTER_DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pause();
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const exited = once(child, 'exit');
    // its rows have started: the query holds the file
    await once(child.stdout!, 'readable');
    const started = Date.now();
    const writer = await openWarehouse({ path: join(dir, 'warehouse.duckdb'), lockWaitMs: 15_000 });
    try {
      expect(Date.now() - started).toBeLessThan(10_000);
      await writer.query('select 1');
    } finally {
      await writer.close();
    }
    const [code] = await exited;
    expect(code, stderr).toBe(75);
    expect(stderr).toMatch(/writer/);
  }, 60_000);
});
