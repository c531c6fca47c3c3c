// makeDirectory: mkdir -p that fails (rather than spinning forever, as Node 20's recursive mkdir does) when a
// parent exists but cannot hold folders, and otherwise fails with Node's own error codes.

import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeDirectory } from '../../src/files/make-directory.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'make-directory-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const codeOf = (f: () => void): string | undefined => {
  try {
    f();
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code;
  }
};

describe('makeDirectory', () => {
  it('makes a folder and its missing parents, and leaves an existing folder alone', () => {
    const deep = join(root, 'a', 'b', 'c');
    makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    writeFileSync(join(deep, 'kept.txt'), 'x');
    makeDirectory(deep);
    makeDirectory(join(root, 'a'));
    expect(statSync(join(deep, 'kept.txt')).isFile()).toBe(true);
  });

  it("fails with Node's own codes: under a file, on a file", () => {
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    for (const path of [join(file, 'below'), join(file, 'below', 'deeper'), file]) {
      const expected = codeOf(() => mkdirSync(path, { recursive: true }));
      expect(expected).toMatch(/^(ENOTDIR|EEXIST)$/);
      expect(codeOf(() => makeDirectory(path))).toBe(expected);
    }
  });

  it('fails under a link to nowhere', () => {
    const dangling = join(root, 'dangling');
    symlinkSync(join(root, 'nowhere'), dangling);
    expect(codeOf(() => makeDirectory(join(dangling, 'x')))).toMatch(/^(EEXIST|ENOENT)$/);
  });

  // Node 20's fs.mkdirSync('/proc/x', { recursive: true }) never returns: run in a child with a deadline, so a
  // regression fails this test instead of spinning the test worker forever
  it.runIf(process.platform === 'linux')(
    'fails at once where a parent exists but cannot hold folders (/proc)',
    () => {
      const module = pathToFileURL(resolve('dist/src/files/make-directory.js')).href;
      const child = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { makeDirectory } = await import(${JSON.stringify(module)});
         try { makeDirectory('/proc/reporter-etl-test/out'); console.log('made'); } catch (e) { console.log(e.code); }`,
        ],
        { encoding: 'utf8', timeout: 20_000 },
      );
      expect(child.signal, 'makeDirectory did not return within 20 s').toBeNull();
      expect(child.stdout.trim()).toBe('ENOENT');
    },
  );
});
