// A data folder another user can write to is not trusted (issue 43, item 3), with the real CLI, real folders
// and real planted links (the tests run as root, here and in CI; uid 65534 plays the other user by chown):
// in a 0777 folder a link `warehouse.duckdb.wal -> a root-only file` is not written through by `sync`, a
// `reports` link does not take a report into another user's folder, a `webhooks` folder others write to does
// not get a receiver to load what they put there; a sticky 1777 folder and another user's folder are refused
// too; each refusal exits 2 saying why and how to fix it, and a folder the tool makes is 0755.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { type CliResult, runCli } from '../helpers/run-cli.js';

const ANOTHER_USER = 65534;
const asRoot = process.getuid?.() === 0;

let root: string;
let data: string;
let rootOnly: string;
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'data-folder-trust-'));
  data = join(root, 'data');
  mkdirSync(data, { mode: 0o700 });
  // a warehouse made while the folder was ours alone
  const warehouse = await openWarehouse({ path: join(data, 'warehouse.duckdb') });
  await warehouse.close();
  rootOnly = join(root, 'root-only');
  writeFileSync(rootOnly, 'root only: never to be overwritten', { mode: 0o600 });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const env = () => ({
  REPORTER_DATA_DIR: data,
  REPORTER_BASE_URL: 'http://127.0.0.1:9',
  REPORTER_TOKEN: 'token-of-the-test-1234',
  REPORTER_PROJECT: 'shop-bot',
  REPORTER_LOCK_WAIT_SECONDS: '5',
});

/** A link planted by the other user (its owner 65534 when the test may chown). */
function plant(target: string, at: string): void {
  symlinkSync(target, at);
  if (asRoot) lchownSync(at, ANOTHER_USER, ANOTHER_USER);
}

function expectRefused(result: CliResult, why: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(why);
  expect(result.stderr).toMatch(/REPORTER_DATA_DIR/);
}

describe('a data folder other users can write to (mode 0777)', () => {
  it('sync does not write through a planted .wal link, and says how to fix the folder', async () => {
    chmodSync(data, 0o777);
    plant(rootOnly, join(data, 'warehouse.duckdb.wal'));
    const result = await runCli(['sync'], env());
    expectRefused(result, /has mode 0777: other users may create files in it.*chmod g-w,o-w/s);
    expect(readFileSync(rootOnly, 'utf8')).toBe('root only: never to be overwritten');
  });

  it('readers (stats, sql) are refused too: they write the turn marker, DuckDB follows links', async () => {
    chmodSync(data, 0o777);
    expectRefused(await runCli(['stats'], env()), /has mode 0777/);
    expectRefused(await runCli(['sql', 'select 1'], env()), /has mode 0777/);
  });

  it('a planted reports link does not take a report into another user’s folder', async () => {
    chmodSync(data, 0o777);
    const theirs = join(root, 'theirs');
    mkdirSync(theirs, { mode: 0o777 });
    plant(theirs, join(data, 'reports'));
    const result = await runCli(['report', 'summary', '--from', '2026-01-01', '--to', '2026-01-02'], env());
    expectRefused(result, /has mode 0777/);
    expect(readdirSync(theirs)).toEqual([]);
  });

  it('a sticky world-writable folder (like /tmp) is not trusted as a data folder either', async () => {
    chmodSync(data, 0o1777);
    expectRefused(await runCli(['sync'], env()), /has mode 01777/);
  });
});

describe('a data folder of ours, closed to others', () => {
  it('sync does not follow the .wal out of it even so (a link of ours to a file elsewhere)', async () => {
    symlinkSync(rootOnly, join(data, 'warehouse.duckdb.wal'));
    const result = await runCli(['sync'], env());
    expectRefused(result, /warehouse\.duckdb\.wal is a link to .*root-only, outside .*remove the link/s);
    expect(readFileSync(rootOnly, 'utf8')).toBe('root only: never to be overwritten');
  });

  it.runIf(asRoot)('reports/ linked to another user’s folder is refused, nothing written there', async () => {
    const theirs = join(root, 'theirs');
    mkdirSync(theirs, { mode: 0o755 });
    chownSync(theirs, ANOTHER_USER, ANOTHER_USER);
    symlinkSync(theirs, join(data, 'reports'));
    const result = await runCli(['report', 'summary', '--from', '2026-01-01', '--to', '2026-01-02'], env());
    expectRefused(result, /belongs to uid 65534/);
    expect(readdirSync(theirs)).toEqual([]);
  });

  it('a webhooks folder others can write to: the receiver refuses to start, loads nothing', async () => {
    const spool = join(data, 'webhooks');
    mkdirSync(spool, { mode: 0o777 });
    chmodSync(spool, 0o777);
    const planted = join(spool, 'spool-1-1.jsonl');
    const event = `${JSON.stringify({ route: 'reject', receivedAt: 1, body: 'planted', reason: 'x', endpoint: 'x' })}\n`;
    writeFileSync(planted, event);
    // without the check the receiver would run (and load the planted spool): the child is stopped at 20 s
    const result = await new Promise<CliResult>((done) =>
      execFile(
        process.execPath,
        [resolve('bin/reporter-etl.js'), 'webhooks', '--port', '0'],
        { env: { ...process.env, LOG_LEVEL: 'warn', ...env() }, timeout: 20_000 },
        (error, stdout, stderr) =>
          done({ code: (error as { code?: number } | null)?.code ?? 0, stdout, stderr }),
      ),
    );
    expectRefused(result, /webhooks has mode 0777/);
    expect(readFileSync(planted, 'utf8')).toBe(event);
  });

  it.runIf(asRoot)('a folder that belongs to another user is refused, even closed', async () => {
    chownSync(data, ANOTHER_USER, ANOTHER_USER);
    expectRefused(await runCli(['stats'], env()), /belongs to uid 65534, not to this user/);
  });

  it('a data folder sync makes is 0755 whatever the umask (and so trusted by the next run)', async () => {
    const fresh = join(root, 'fresh', 'data');
    const result = await new Promise<CliResult>((done) =>
      execFile(
        '/bin/sh',
        ['-c', 'umask 0 && exec "$0" "$@"', process.execPath, resolve('bin/reporter-etl.js'), 'sync'],
        { env: { ...process.env, LOG_LEVEL: 'warn', ...env(), REPORTER_DATA_DIR: fresh } },
        (error, stdout, stderr) =>
          done({ code: (error as { code?: number } | null)?.code ?? 0, stdout, stderr }),
      ),
    );
    // the platform is unreachable (the run fails): what matters is the folder it made
    expect(result.stderr).not.toMatch(/config\.data_dir_unsafe|has mode/);
    expect(statSync(fresh).mode & 0o777).toBe(0o755);
    expect(statSync(join(root, 'fresh')).mode & 0o777).toBe(0o755);
  });
});
