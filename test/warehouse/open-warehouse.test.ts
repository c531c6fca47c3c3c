// One writer per warehouse file: a real child process holds the DuckDB file; openWarehouse waits, then
// fails with a transient EtlError naming the file and the holder's PID, or succeeds once the holder
// releases in time. close() releases the file for other processes and further calls fail clearly.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EtlError } from '../../src/errors.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { makeTempDir } from './fixtures.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Node code that opens the file, says "held", and releases it after `releaseAfterMs` ("released"). */
const HOLDER = `
import { DuckDBInstance } from '@duckdb/node-api';
const [path, releaseAfterMs] = process.argv.slice(1);
const instance = await DuckDBInstance.create(path);
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

/** Starts a holder process and resolves once it holds the file. */
async function holdFile(path: string, releaseAfterMs: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', HOLDER, path, String(releaseAfterMs)], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

  it('refuses a second open of the same file inside this process, naming this process', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const first = await openWarehouse({ path });
    const error = await openWarehouse({ path: `${temp.dir}/./warehouse.duckdb`, lockWaitMs: 100 }).catch(
      (e) => e,
    );
    expect(error).toMatchObject({ code: 'warehouse.locked' });
    expect((error as Error).message).toContain(`PID ${process.pid}`);
    await first.close();
    await (await openWarehouse({ path, lockWaitMs: 100 })).close();
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
