#!/usr/bin/env node
// The reporter-etl executable: runs the compiled CLI (dist/, built by `npm ci` through `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/bin.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    'reporter-etl: dist/ is missing; run `npm ci` (or `npm run build`) in the repository first.\n',
  );
  process.exit(2);
}
await import(entry.href);
