// The rule of every folder the tool writes in (src/files/folder-trust.ts, trusted-folder.ts), on real folders:
// ours and closed to others is trusted; one another user can write to (0777, 0775, a sticky 1777 like /tmp),
// one that belongs to another user, or one under a folder others may rename things in, is not; a file that is
// a link out of the folder, or pointing nowhere, is refused; a link that stays inside is fine. The tests run
// as root (here and in CI), which may chown to nobody (65534) to play the other user.
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EtlError } from '../../src/errors.js';
import { folderTrustProblem, linkOutReason } from '../../src/files/folder-trust.js';
import { assertTrustedFolder, prepareTrustedFolder } from '../../src/files/trusted-folder.js';

const ANOTHER_USER = 65534;
const asRoot = process.getuid?.() === 0;

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'folder-trust-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string, mode: number): string {
  const path = join(root, name);
  mkdirSync(path);
  chmodSync(path, mode);
  return path;
}

describe('a folder the tool writes in', () => {
  it('is trusted when it is ours and no one else may write to it', () => {
    expect(folderTrustProblem(folder('own', 0o755))).toBeUndefined();
    expect(folderTrustProblem(folder('private', 0o700))).toBeUndefined();
    expect(folderTrustProblem(folder('read-only', 0o555))).toBeUndefined();
  });

  for (const [mode, shown] of [
    [0o777, '0777'],
    [0o775, '0775'],
    [0o757, '0757'],
    [0o1777, '01777'],
  ] as const)
    it(`is not trusted with mode ${shown} (others may create files, or links, in it)`, () => {
      expect(folderTrustProblem(folder(`m${shown}`, mode))).toMatch(
        new RegExp(`has mode ${shown}: other users may create files in it`),
      );
    });

  it.runIf(asRoot)('is not trusted when it belongs to another user, even closed', () => {
    const theirs = folder('theirs', 0o700);
    chownSync(theirs, ANOTHER_USER, ANOTHER_USER);
    expect(folderTrustProblem(theirs)).toMatch(/belongs to uid 65534, not to this user/);
  });

  it('is not trusted under a folder others may rename things in; a sticky one (like /tmp) is fine', () => {
    const open = folder('open', 0o777);
    mkdirSync(join(open, 'data'), { mode: 0o700 });
    expect(folderTrustProblem(join(open, 'data'))).toMatch(/folder .*open above it has mode 0777/);
    const sticky = folder('sticky', 0o1777);
    mkdirSync(join(sticky, 'data'), { mode: 0o700 });
    expect(folderTrustProblem(join(sticky, 'data'))).toBeUndefined();
  });

  it.runIf(asRoot)('is not trusted under a folder of another user', () => {
    const theirs = folder('home-of-65534', 0o755);
    mkdirSync(join(theirs, 'data'), { mode: 0o700 });
    chownSync(theirs, ANOTHER_USER, ANOTHER_USER);
    expect(folderTrustProblem(join(theirs, 'data'))).toMatch(/above it belongs to uid 65534/);
  });

  it('reached through a link, is judged where the link leads, and where the link is', () => {
    const real = folder('real', 0o777);
    symlinkSync(real, join(root, 'named'));
    expect(folderTrustProblem(join(root, 'named'))).toMatch(/named \(.*real\) has mode 0777/);
    const good = folder('good', 0o700);
    const open = folder('open', 0o777);
    symlinkSync(good, join(open, 'link'));
    expect(folderTrustProblem(join(open, 'link'))).toMatch(/open above it has mode 0777/);
  });
});

describe('a file the tool opens by name in a trusted folder', () => {
  it('may not be a link out of it, nor one pointing nowhere; a link inside is fine', () => {
    const data = folder('data', 0o700);
    const outside = join(root, 'root-only');
    writeFileSync(outside, 'root only', { mode: 0o600 });
    symlinkSync(outside, join(data, 'warehouse.duckdb.wal'));
    expect(linkOutReason(join(data, 'warehouse.duckdb.wal'), data)).toMatch(
      /is a link to .*root-only, outside/,
    );
    symlinkSync(join(root, 'nowhere'), join(data, 'dangling'));
    expect(linkOutReason(join(data, 'dangling'), data)).toMatch(/points nowhere/);
    writeFileSync(join(data, 'inside'), 'x');
    symlinkSync(join(data, 'inside'), join(data, 'inside-link'));
    expect(linkOutReason(join(data, 'inside-link'), data)).toBeUndefined();
    expect(linkOutReason(join(data, 'absent'), data)).toBeUndefined();
    expect(() =>
      assertTrustedFolder(data, { setting: 'REPORTER_DATA_DIR', files: ['warehouse.duckdb.wal'] }),
    ).toThrow(/REPORTER_DATA_DIR: .*warehouse\.duckdb\.wal is a link to .*; remove the link/);
  });
});

describe('assertTrustedFolder', () => {
  it.runIf(asRoot)('refuses with exit 2, saying why and how to fix it', () => {
    const shared = folder('shared', 0o777);
    const planted = join(shared, 'warehouse.duckdb.wal');
    symlinkSync(join(root, 'root-only'), planted);
    lchownSync(planted, ANOTHER_USER, ANOTHER_USER);
    let error: unknown;
    try {
      assertTrustedFolder(shared, { setting: 'REPORTER_DATA_DIR', files: ['warehouse.duckdb.wal'] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EtlError);
    expect((error as EtlError).code).toBe('config.data_dir_unsafe');
    expect((error as EtlError).exitCode).toBe(2);
    expect((error as EtlError).message).toMatch(
      /^REPORTER_DATA_DIR: the folder .*shared has mode 0777: other users may create files in it\. .*chmod g-w,o-w .*shared.*or set REPORTER_DATA_DIR to a folder only you can write to/,
    );
  });

  it('prepareTrustedFolder makes a missing folder 0755 whatever the umask allows', () => {
    const before = process.umask(0);
    try {
      prepareTrustedFolder(join(root, 'made', 'webhooks'), { setting: 'REPORTER_DATA_DIR' });
    } finally {
      process.umask(before);
    }
    expect(statSync(join(root, 'made', 'webhooks')).mode & 0o777).toBe(0o755);
    expect(statSync(join(root, 'made')).mode & 0o777).toBe(0o755);
  });
});
