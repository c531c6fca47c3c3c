// The warehouse file between processes: a real child process holds the DuckDB file (read-write, or READ_ONLY
// as a reader); a writer waits, then fails with a transient EtlError naming the file and the holder's PID,
// or succeeds once the holder releases in time; readers share the file with readers and wait only for a
// writer's commit. A reader holds the file only while an operation (or hold()) runs; a writer keeps it
// between operations until a process asks through the turn marker or a second passes; close() ends it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EtlError } from '../../src/errors.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { makeTempDir } from './fixtures.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Node code that opens the file, says "held", and releases it after `releaseAfterMs` ("released"). */
const HOLDER = `
import { DuckDBInstance } from '@duckdb/node-api';
import { pino } from 'pino';
const [path, releaseAfterMs, mode] = process.argv.slice(1);
const instance = await DuckDBInstance.create(path, mode === 'read' ? { access_mode: 'READ_ONLY' } : {});
const connection = await instance.connect();
process.stdout.write('held\\n');
setTimeout(() => {
  connection.closeSync();
  instance.closeSync();
  process.stdout.write('released\\n');
}, Number(releaseAfterMs));
`;

let temp: ReturnType<typeof makeTempDir>;
const children: ChildProcess[] = [];

beforeEach(() => {
  temp = makeTempDir();
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  temp.cleanup();
});

/** Node code that asks for the file the way reporter-etl's processes do, and says how long it waited. */
const ASKER = `
import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
const [path] = process.argv.slice(1);
const started = Date.now();
for (;;) {
  try {
    const instance = await DuckDBInstance.create(path);
    instance.closeSync();
    process.stdout.write('held after ' + (Date.now() - started) + ' ms\\n');
    break;
  } catch (error) {
    if (Date.now() - started > 10000) throw error;
    writeFileSync(path + '.waiting', String(process.pid));
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
`;

/** Runs ASKER in a child process: how long it waited for the file, ms. */
async function askForFile(path: string): Promise<number> {
  const asker = spawn(process.execPath, ['--input-type=module', '-e', ASKER, path], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(asker);
  let output = '';
  asker.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await once(asker, 'exit');
  expect(asker.exitCode).toBe(0);
  return Number(/held after (\d+) ms/.exec(output)?.[1]);
}

/** Starts a holder process and resolves once it holds the file. */
async function holdFile(
  path: string,
  releaseAfterMs: number,
  mode: 'read' | 'write' = 'write',
): Promise<ChildProcess> {
  const args = ['--input-type=module', '-e', HOLDER, path, String(releaseAfterMs), mode];
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let output = '';
  child.stdout?.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('held')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`holder exited with ${code} before holding the file`)));
  });
  return child;
}

describe('openWarehouse and the file lock', () => {
  it('waits, then fails with a transient error naming the file and the holding process', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    await (await openWarehouse({ path })).close();
    const holder = await holdFile(path, 60_000);
    const started = Date.now();
    const error = await openWarehouse({ path, lockWaitMs: 700 }).catch((e: unknown) => e);
    const waited = Date.now() - started;
    expect(error).toBeInstanceOf(EtlError);
    expect(error).toMatchObject({ code: 'warehouse.locked', kind: 'transient', exitCode: 75 });
    const message = (error as Error).message;
    expect(message).toContain(path);
    expect(message).toContain(`PID ${holder.pid}`);
    expect(message).toMatch(/node/);
    expect(waited).toBeGreaterThanOrEqual(650);
    expect(waited).toBeLessThan(5_000);
  });

  it('succeeds when the holder releases the file in time', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    await holdFile(path, 600);
    const started = Date.now();
    const warehouse = await openWarehouse({ path, lockWaitMs: 10_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(await warehouse.query('SELECT count(*) AS n FROM sessions')).toEqual([{ n: 0 }]);
    await warehouse.close();
  });

  it('releases the file on close, so another process can open it', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const warehouse = await openWarehouse({ path });
    await warehouse.close();
    await warehouse.close();
    const holder = await holdFile(path, 0);
    await once(holder, 'exit');
    expect(holder.exitCode).toBe(0);
    await expect(warehouse.query('SELECT 1')).rejects.toMatchObject({ code: 'warehouse.closed' });
  });

  it('refuses a second open of the same file inside this process while the first holds it', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const first = await openWarehouse({ path });
    let release = () => {};
    let opened = () => {};
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const held = first.hold(async () => {
      await first.query('SELECT 1');
      opened();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isOpen;
    const error = await openWarehouse({ path: `${temp.dir}/./warehouse.duckdb`, lockWaitMs: 100 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ code: 'warehouse.locked' });
    expect((error as Error).message).toContain(`PID ${process.pid}`);
    release();
    await held;
    await first.close();
    await (await openWarehouse({ path, lockWaitMs: 100 })).close();
  });

  it('a writer keeps the file between operations until another process asks for it through the turn marker', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const warehouse = await openWarehouse({ path });
    expect(await warehouse.query('SELECT count(*) AS n FROM sessions')).toEqual([{ n: 0 }]);
    // a process that does not ask is kept out while the writer is busy (it would reopen at every window);
    // busy: an operation every 100 ms, so a slow start of that process never meets a second of idleness
    let stop = false;
    const busy = (async () => {
      while (!stop) {
        await warehouse.query('SELECT 1 AS one');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    try {
      await expect(holdFile(path, 0)).rejects.toThrow(/exited with 1/);
    } finally {
      stop = true;
      await busy;
    }
    // one that asks (touches <file>.waiting at each failed attempt) gets the file within a moment
    expect(await askForFile(path)).toBeLessThan(2_000);
    // and the writer opens the file again for its next operation
    expect(await warehouse.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await warehouse.close();
  });

  it('a busy writer gives a turn at most every 3 s: a second asker waits for it', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const warehouse = await openWarehouse({ path });
    let stop = false;
    let done = 0;
    // operations back to back: the writer never idles, it lets askers in only when a turn is due
    const busy = (async () => {
      for (; !stop; done++) await warehouse.query('SELECT count(*) AS n FROM sessions');
    })();
    try {
      const first = await askForFile(path);
      const firstGotIt = Date.now();
      // the writer is back (an operation finished after the first turn): a new asker needs a new turn
      const before = done;
      while (done < before + 2) await new Promise((resolve) => setTimeout(resolve, 10));
      const second = await askForFile(path);
      expect(first).toBeLessThan(2_000);
      // the second turn comes 3 s after the first (the asker started right after the first got in)
      expect(Date.now() - firstGotIt).toBeGreaterThanOrEqual(2_900);
      expect(second).toBeLessThan(8_000);
    } finally {
      stop = true;
      await busy;
      await warehouse.close();
    }
  });

  it('a writer lets go of the file after a second without operations', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const warehouse = await openWarehouse({ path });
    expect(await warehouse.query('SELECT count(*) AS n FROM sessions')).toEqual([{ n: 0 }]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const writer = await holdFile(path, 0);
    await once(writer, 'exit');
    expect(writer.exitCode).toBe(0);
    expect(await warehouse.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await warehouse.close();
  });

  it('readers share the file: a read open succeeds at once while another process reads', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    await (await openWarehouse({ path })).close();
    await holdFile(path, 60_000, 'read');
    const reader = await openWarehouse({ path, access: 'read', lockWaitMs: 500 });
    expect(await reader.query('SELECT count(*) AS n FROM sessions')).toEqual([{ n: 0 }]);
    // read-only: writes are refused by DuckDB, nothing is changed
    await expect(
      reader.query("INSERT INTO schema_migrations VALUES (998, 'x', now())"),
    ).rejects.toMatchObject({
      code: 'warehouse.query_failed',
    });
    await reader.close();
  });

  it("a reader waits for a writer's commit, names it, and never calls itself a writer", async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    await (await openWarehouse({ path })).close();
    const holder = await holdFile(path, 60_000);
    const lines: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const error = await openWarehouse({ path, access: 'read', lockWaitMs: 400, log }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'warehouse.locked', exitCode: 75 });
    const message = (error as Error).message;
    expect(message).toContain(`PID ${holder.pid}`);
    expect(message).toMatch(/being written/);
    expect(message).not.toMatch(/one writer/i);
    expect(lines.join('')).toMatch(new RegExp(`waiting for .*PID ${holder.pid}.* to finish committing`));
  });

  it('a reader of a warehouse with pending migrations is told to run sync; a missing file is a usage error', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const instance = await DuckDBInstance.create(path);
    instance.closeSync();
    await expect(openWarehouse({ path, access: 'read' })).rejects.toMatchObject({
      code: 'warehouse.needs_upgrade',
      exitCode: 2,
      message: expect.stringMatching(/reporter-etl sync/),
    });
    await expect(openWarehouse({ path: `${temp.dir}/none.duckdb`, access: 'read' })).rejects.toMatchObject({
      code: 'warehouse.missing',
      exitCode: 2,
    });
  });

  it('fails at once, as terminal, on a file that is not a DuckDB database', async () => {
    const path = `${temp.dir}/not-a-db.duckdb`;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, 'this is not a database file, just text that is long enough to have a header');
    await expect(openWarehouse({ path, lockWaitMs: 5_000 })).rejects.toMatchObject({
      code: 'warehouse.corrupt',
      kind: 'terminal',
      message: expect.stringContaining('reporter-etl sync --full'),
    });
  });
});
