// Runs a measured program as a child process of node and reports its wall time and peak RSS. The peak
// RSS comes from the child itself (process.resourceUsage().maxRSS, written at exit by the preloaded
// children/report-resources.js), so it needs no /usr/bin/time and counts only the child. The CLI is run as
// its users run it, as a command (its first lines set MALLOC_ARENA_MAX and exec node: bin/reporter-etl.js),
// with the preload in NODE_OPTIONS and this node first on the PATH; other children by this node.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ChildResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Peak resident set size of the child, MB (10^6 bytes). */
  maxRssMb: number;
  userCpuS: number;
  systemCpuS: number;
}

/** The preload that writes a child's peak RSS and CPU at its exit (to BENCH_RESOURCES_FILE). */
export const RESOURCES_PRELOAD = fileURLToPath(new URL('./children/report-resources.js', import.meta.url));

export async function runChild(
  script: string,
  args: readonly string[],
  options: { env?: Record<string, string>; cwd?: string; resourcesFile: string },
): Promise<ChildResult> {
  rmSync(options.resourcesFile, { force: true });
  const started = performance.now();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    BENCH_RESOURCES_FILE: options.resourcesFile,
  };
  let command = process.execPath;
  let commandArgs = ['--import', RESOURCES_PRELOAD, script, ...args];
  if (script === CLI) {
    command = CLI;
    commandArgs = [...args];
    env['NODE_OPTIONS'] = [env['NODE_OPTIONS'], `--import=${JSON.stringify(RESOURCES_PRELOAD)}`]
      .filter(Boolean)
      .join(' ');
    env['PATH'] = [dirname(process.execPath), env['PATH']].filter(Boolean).join(delimiter);
  }
  const child = spawn(command, commandArgs, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 1));
  });
  const wallMs = performance.now() - started;
  let usage: { maxRSS?: number; userCPUTime?: number; systemCPUTime?: number } = {};
  try {
    usage = JSON.parse(readFileSync(options.resourcesFile, 'utf8'));
  } catch {
    // the child died before writing it: reported as 0 below and visible in stderr
  }
  return {
    exitCode,
    stdout,
    stderr,
    wallMs,
    maxRssMb: ((usage.maxRSS ?? 0) * 1024) / 1e6,
    userCpuS: (usage.userCPUTime ?? 0) / 1e6,
    systemCpuS: (usage.systemCPUTime ?? 0) / 1e6,
  };
}

/**
 * The environment the executable gives the CLI (bin/reporter-etl.js's first lines, where the variables are not
 * set already): for a child that runs the CLI's code in a bare node, so that its memory is what users get.
 */
export const CLI_ENV: Readonly<Record<string, string>> = Object.freeze({
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '4194304',
});

/** The repository root (dist/bench/ → ../..). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(REPO_ROOT, 'bin', 'reporter-etl.js');
export const childScript = (name: string): string =>
  fileURLToPath(new URL(`./children/${name}`, import.meta.url));
