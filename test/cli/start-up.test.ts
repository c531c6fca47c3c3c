// The CLI's start-up: `--help` and `--version` (and a mistyped command) answer without loading any unit, the
// configuration's validation or a dependency (DuckDB, zod, undici, pino, exceljs): each of those costs tenths of
// a second of every call; a light command (runs, sql, a command's --help) loads the units' descriptions but no
// platform client, no HTTP transport, no writer and not DuckDB. The modules a child process loads are recorded by
// a hook (DuckDB's binding is required, never imported: the hook records require() too).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SOURCES } from '../../src/sources/registry.js';
import { SOURCE_COMMANDS } from '../../src/sources/source-commands.js';

const run = promisify(execFile);
const PURE_PLATFORM_HELPERS = /\/(reporter\/normalise-channel|chatapi\/parse-chatapi-time)\.js$/;

/**
 * The files of this repository and the packages a run of the CLI with `args` loads; a package it requires is
 * listed as `node_modules/<name>/ (required)`.
 */
async function loadedModules(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const child = await run(
    process.execPath,
    ['--import', resolve('test/helpers/record-imports.mjs'), resolve('bin/reporter-etl.js'), ...args],
    { env: { ...process.env, REPORTER_TOKEN: '', ...env } },
  ).catch((error: { stderr: string }) => error);
  const imported = [...child.stderr.matchAll(/^imported (file:\S+)$/gm)].map((m) =>
    m[1]!.replace(`file://${resolve('.')}/`, ''),
  );
  const required = [...child.stderr.matchAll(/^required (\S+)$/gm)].map(
    (m) => `node_modules/${m[1]}/ (required)`,
  );
  return [...imported, ...required];
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

  it("a light command and a command's --help load no platform client, no HTTP transport, no writer, no DuckDB", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reporter-etl-start-up-'));
    try {
      const cases = [
        ['runs', '--help'],
        ['runs', '--json'],
        ['sql', '--help'],
        ['stats', '--help'],
        ['sync', '--help'],
        ['report', '--help'],
        ['run', '--help'],
        ['schedule', '--help'],
      ];
      for (const args of cases) {
        const modules = await loadedModules(args, { REPORTER_DATA_DIR: dataDir });
        const label = args.join(' ');
        // the command ran: its module and the registries of the units (the log's secret list) were loaded
        expect(modules, label).toContain(`dist/src/cli/commands/${args[0]}.js`);
        expect(modules, label).toContain('dist/src/sources/registry.js');
        expect(
          modules.filter((m) => /node_modules\/(undici|exceljs|echarts|@resvg|csv-parse|@duckdb)\b/.test(m)),
          label,
        ).toEqual([]);
        // two pure functions of src/platform/ are shared: the statistics name a channel as the platform does,
        // the webhook spool's loader (schedule) reads the Chat API's times
        expect(
          modules.filter((m) => /^dist\/src\/(platform|http)\//.test(m) && !PURE_PLATFORM_HELPERS.test(m)),
          label,
        ).toEqual([]);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("the light list of the units' commands is the units' own", () => {
    expect(SOURCE_COMMANDS.map((c) => c.name)).toEqual(SOURCES.flatMap((s) => s.commands.map((c) => c.name)));
    expect(SOURCE_COMMANDS).toEqual(SOURCES.flatMap((s) => s.commands));
  });
});
