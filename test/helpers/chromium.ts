// Headless Chromium for the HTML report tests: where it is (skipped off CI when missing; .ci/run installs
// it), and a run of it with a throwaway profile, so that tests open a page as a reader's browser does.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Chromium binary, or undefined when it is not installed (under CI: an error, it must be there). */
export function findChromium(): string | undefined {
  const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
  if (!chromium && process.env['CI']) throw new Error('chromium is missing under CI (.ci/run installs it)');
  return chromium;
}

export const CHROMIUM_MISSING =
  'chromium is not installed (apt-get install chromium); .ci/run installs it under CI';

/** Runs headless Chromium with `args` (plus a fresh profile) and gives back what it printed. */
export async function runChromium(chromium: string, args: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-chromium-'));
  try {
    const common = [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      `--user-data-dir=${join(dir, 'profile')}`,
    ];
    const { stdout } = await run(chromium, [...common, ...args], {
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
