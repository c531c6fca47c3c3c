// The CLI's start-up: `--help` and `--version` (and a mistyped command) answer without loading any unit, the
// configuration's validation or a dependency (DuckDB, zod, undici, pino, exceljs): each of those costs tenths of
// a second of every call. The modules a child process loads are recorded by a hook, not timed.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SOURCES } from '../../src/sources/registry.js';
import { SOURCE_COMMANDS } from '../../src/sources/source-commands.js';

const run = promisify(execFile);

/** The files of this repository and the packages a run of the CLI with `args` loads. */
async function loadedModules(args: string[]): Promise<string[]> {
  const child = await run(
    process.execPath,
    ['--import', resolve('test/helpers/record-imports.mjs'), resolve('bin/reporter-etl.js'), ...args],
    { env: { ...process.env, REPORTER_TOKEN: '' } },
  ).catch((error: { stderr: string }) => error);
  return [...child.stderr.matchAll(/^imported (file:\S+)$/gm)].map((m) =>
    m[1]!.replace(`file://${resolve('.')}/`, ''),
  );
}

describe('the start-up of the CLI', () => {
  it('--version, --help and a mistyped command load no dependency and no unit', async () => {
    for (const args of [['--version'], ['--help'], ['sycn']]) {
      const modules = await loadedModules(args);
      expect(modules, args.join(' ')).toContain('dist/src/cli/main.js');
      expect(
        modules.filter((m) => m.includes('node_modules/')),
        args.join(' '),
      ).toEqual([]);
      expect(
        modules.filter((m) =>
          /^dist\/src\/(config|log)\.js|^dist\/src\/(sources|warehouse)\/(?!source-)/.test(m),
        ),
        args.join(' '),
      ).toEqual([]);
    }
  });

  it("the light list of the units' commands is the units' own", () => {
    expect(SOURCE_COMMANDS.map((c) => c.name)).toEqual(SOURCES.flatMap((s) => s.commands.map((c) => c.name)));
    expect(SOURCE_COMMANDS).toEqual(SOURCES.flatMap((s) => s.commands));
  });
});
