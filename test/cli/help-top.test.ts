// The top of the CLI as a new user meets it: --version, `help <command>`, the top-level help (settings, exit
// codes, examples), a mistyped command or option answered with the nearest real one, never Node's own text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../../jobs/registry.js';
import { REPORTS } from '../../reports/index.js';
import { main } from '../../src/cli/main.js';
import { displayWidth } from '../../src/text/display-width.js';
import { runCli } from '../helpers/run-cli.js';

const env = { REPORTER_TOKEN: '' };

describe('the top-level CLI', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V', 'version']) {
      const r = await runCli([flag], env);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(`reporter-etl ${pkg.version} (Node ${process.version})`);
    }
  });

  it('`help <command>` prints the command help; the top-level help names the settings, exit codes and examples', async () => {
    const help = await runCli(['help', 'sync'], env);
    const own = await runCli(['sync', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(own.stdout);
    const top = await runCli(['--help'], env);
    for (const text of ['REPORTER_TOKEN', 'REPORTER_DATA_DIR', 'Exit codes:', 'Examples:', '--version'])
      expect(top.stdout).toContain(text);
  });

  it('a mistyped command or option gets the nearest real one, not Node\'s advice about "--"', async () => {
    const command = await runCli(['sycn'], env);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command "sycn" \(did you mean "sync"\?\)/);
    const cases: [string[], RegExp][] = [
      [['report', 'summary', '--form', '2026-11-01'], /unknown option --form \(did you mean --from\?\)/],
      [['run', 'sync', '--jsn'], /unknown option --jsn \(did you mean --json\?\)/],
      [['platform-report', 'list', '--jsno'], /unknown option --jsno \(did you mean --json\?\)/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args, env);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr).not.toMatch(/place it at the end/);
      expect(r.stderr).toContain(`See: reporter-etl ${args[0]} --help`);
    }
    // a mistyped report, job or platform report kind: the nearest one named
    const names: [string[], Record<string, string>, RegExp][] = [
      [['report', 'sumary'], {}, /unknown report "sumary" \(did you mean "summary"\?\)/],
      [['run', 'synk'], {}, /no job "synk" \(did you mean "sync"\?\)/],
      [['platform-report', 'mesages'], {}, /unknown report kind "mesages" \(did you mean "messages"\?\)/],
      [
        ['schedule', '--list'],
        { REPORTER_JOBS: 'dayly-report' },
        /no job "dayly-report" \(did you mean "daily-report"\?\)/,
      ],
    ];
    for (const [args, extra, message] of names) {
      const r = await runCli(args, { ...env, ...extra });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
  });
});

describe("every command's help", () => {
  it('has its usage line, its options, its exit codes and examples', async () => {
    const top = await runCli(['--help'], env);
    const names = [...top.stdout.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => m[1]!);
    expect(names.length).toBeGreaterThanOrEqual(15);
    // the CLI's own entry in this process (help is pure text): one child process per command added ~12 s
    for (const name of names) {
      const help = await helpInProcess(name);
      expect(help, name).toMatch(new RegExp(`^reporter-etl ${name}\\b`));
      expect(help, name).toMatch(/^ {2}--[a-z]/m);
      expect(help, name).toMatch(/^Exit codes:/m);
      expect(help, name).toMatch(/^Examples?\b.*:$/m);
      for (const line of help.split('\n'))
        expect(displayWidth(line), `${name}: ${line}`).toBeLessThanOrEqual(100);
    }
    for (const line of top.stdout.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(100);
    // and the in-process text is the one a process prints
    expect(await helpInProcess('sync')).toBe((await runCli(['sync', '--help'], env)).stdout);
  }, 120_000);
});

/** `reporter-etl <name> --help` through main() in this process: stdout as the process writes it. */
async function helpInProcess(name: string): Promise<string> {
  const out: string[] = [];
  const code = await main([name, '--help'], { out: (line) => out.push(line), err: () => {}, isTty: false });
  expect(code, name).toBe(0);
  return out.map((line) => `${line}\n`).join('');
}

describe('help texts that follow the registries', () => {
  it('`kb sync --help` and `kb eval --help` print their own help; `help kb sync` the same', async () => {
    const sync = await runCli(['kb', 'sync', '--help'], env);
    expect(sync.code).toBe(0);
    expect(sync.stdout).toMatch(/^reporter-etl kb sync \[--json\]/);
    expect(sync.stdout).not.toContain('reporter-etl kb eval');
    expect((await runCli(['help', 'kb', 'sync'], env)).stdout).toBe(sync.stdout);
    const evaluation = await runCli(['kb', 'eval', '--help'], env);
    expect(evaluation.code).toBe(0);
    expect(evaluation.stdout).toMatch(/^reporter-etl kb eval /);
    expect(evaluation.stdout).not.toContain('reporter-etl kb sync');
    const all = await runCli(['kb', '--help'], env);
    expect(all.stdout).toMatch(/^reporter-etl kb <subcommand>/);
    expect(all.stdout).toContain('reporter-etl kb sync');
    expect(all.stdout).toContain('reporter-etl kb eval');
    for (const help of [sync.stdout, evaluation.stdout, all.stdout])
      for (const line of help.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(100);
  });

  it('`run --help` names every job of the registry (the top-level help points there, listing none by hand)', async () => {
    const help = (await runCli(['run', '--help'], env)).stdout;
    for (const job of JOBS) expect(help, job.id).toMatch(new RegExp(`^ {2}${job.id} `, 'm'));
    const top = (await runCli(['--help'], env)).stdout;
    expect(top.split('\n').find((l) => /^ {2}run /.test(l))).toContain('run --help');
  });

  it('the top-level help names every report; `report --help` names every report --format html writes', async () => {
    const top = await runCli(['--help'], env);
    // the entry with the lines that continue it (the help is fitted to 100 columns)
    const line = /^ {2}report .*(?:\n {4,}.*)*/m.exec(top.stdout)![0];
    for (const report of REPORTS) expect(line, report.id).toContain(report.id);
    const help = (await runCli(['report', 'kb-eval', '--help'], env)).stdout;
    const html = REPORTS.filter((r) => r.formats?.includes('html')).map((r) => r.id);
    expect(html).toContain('kb-eval');
    const formatLine = /^ {2}--format F.*(?:\n {4,}.*)*/m.exec(help)![0];
    for (const id of html) expect(formatLine, id).toContain(id);
  });
});
