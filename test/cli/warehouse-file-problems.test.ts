// What a user sees when the warehouse's place on disk is wrong: REPORTER_DATA_DIR naming a file (sync said
// EEXIST, stats said there was no warehouse), a data directory where no folder can be made (/proc), and a
// damaged warehouse file (DuckDB's checksum message with no way out). Each is one clear message naming the
// file, no stack.
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'warehouse-file-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The environment of a user whose REPORTER_DATA_DIR is `dataDir`; the API is never reached. */
function envFor(dataDir: string): Record<string, string> {
  return {
    REPORTER_DATA_DIR: dataDir,
    REPORTER_TOKEN: 'test-token',
    REPORTER_BASE_URL: 'http://127.0.0.1:9',
  };
}

const STACK = /\n\s+at |EEXIST|ENOTDIR/;

describe('REPORTER_DATA_DIR naming a file', () => {
  it('is named as a file, not a folder, by sync and stats (exit 2)', async () => {
    const file = join(dir, 'data');
    writeFileSync(file, 'not a folder\n');
    for (const command of ['sync', 'stats']) {
      const r = await runCli([command], envFor(file));
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`REPORTER_DATA_DIR: ${file} is a file, not a folder`);
      expect(r.stderr).not.toMatch(/there is no warehouse/);
      expect(r.stderr).not.toMatch(STACK);
    }
  }, 90_000);

  it('names the file a data directory lies under (exit 2)', async () => {
    const file = join(dir, 'data');
    writeFileSync(file, 'not a folder\n');
    for (const command of ['sync', 'stats']) {
      const r = await runCli([command], envFor(join(file, 'sub')));
      expect(r.code, `${command}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`is under ${file}, which is a file, not a folder`);
      expect(r.stderr).not.toMatch(STACK);
    }
  }, 90_000);
});

// Node 20's fs.mkdirSync(dir, { recursive: true }) spins forever under /proc (mkdir: ENOENT for the child,
// EEXIST for the parent); src/files/make-directory.ts walks once. A hang would time this test out.
describe.runIf(process.platform === 'linux')('REPORTER_DATA_DIR where no folder can be made (/proc)', () => {
  it('is refused at once by sync, naming the setting (exit 2)', async () => {
    const r = await runCli(['sync'], envFor('/proc/reporter-etl-data'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/warehouse file \/proc\/reporter-etl-data\/warehouse.duckdb cannot be made/);
    expect(r.stderr).toMatch(/set REPORTER_DATA_DIR to a folder/);
    expect(r.stderr).not.toMatch(STACK);
  }, 60_000);
});

describe('a damaged warehouse file', () => {
  async function expectRecoveryHint(dataDir: string): Promise<void> {
    const path = join(dataDir, 'warehouse.duckdb');
    for (const command of ['stats', 'sync']) {
      const r = await runCli([command], envFor(dataDir));
      expect(r.code, `${command}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toContain(`The warehouse file ${path} is damaged`);
      expect(r.stderr).toMatch(/restore the file from a backup/);
      expect(r.stderr).toContain(`mv ${path} ${path}.damaged`);
      expect(r.stderr).toMatch(/reporter-etl sync --full/);
      expect(r.stderr).not.toMatch(STACK);
    }
  }

  it('with its blocks overwritten: says so and how to recover (backup, or sync --full)', async () => {
    const dataDir = join(dir, 'data');
    const path = join(dataDir, 'warehouse.duckdb');
    const warehouse = await openWarehouse({ path }); // created with every migration applied
    await warehouse.close();
    // keep DuckDB's headers (the first 12 KiB) so that the file is still a DuckDB file; damage every block
    const size = statSync(path).size;
    expect(size).toBeGreaterThan(64 * 1024);
    const fd = openSync(path, 'r+');
    try {
      writeSync(fd, Buffer.alloc(size - 12_288, 0xa5), 0, size - 12_288, 12_288);
    } finally {
      closeSync(fd);
    }
    await expectRecoveryHint(dataDir);
  }, 90_000);

  it('holding something else than a DuckDB database: the same hint', async () => {
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'warehouse.duckdb'), Buffer.alloc(100_000, 'garbage '));
    await expectRecoveryHint(dataDir);
  }, 90_000);
});
