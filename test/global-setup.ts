// vitest global setup: makes sure dist/ (the compiled CLI that e2e tests spawn) is current, building it
// when a source file is newer than the build (npm test builds first, so this is usually a no-op).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    newest = Math.max(newest, stat.isDirectory() ? newestMtime(path) : stat.mtimeMs);
  }
  return newest;
}

export default function setup(): void {
  const bin = 'dist/src/cli/bin.js';
  const sources = Math.max(...['src', 'jobs', 'reports'].filter(existsSync).map(newestMtime));
  if (existsSync(bin) && statSync(bin).mtimeMs >= sources) return;
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
