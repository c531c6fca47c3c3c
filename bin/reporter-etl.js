#!/usr/bin/env node
// The reporter-etl executable: runs the compiled CLI (dist/, built by `npm ci` through `prepare`). It exposes
// V8's gc() first, before any of the CLI (DuckDB, exceljs) is loaded: src/collect-garbage.ts runs a full
// collection now and then, because DuckDB's native memory is freed only when V8 finalizes its wrappers.
// Not by running node again with --expose-gc: the second process doubled the start-up (`--help` 5 runs:
// ~0.3-0.5 s -> ~0.7-1.2 s on the loaded 2-core machine), and a Ctrl-C or a service stop that signals the
// whole process group would reach the CLI twice, the second signal killing its graceful stop.
// `node --expose-gc bin/reporter-etl.js` is honoured as it is.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

if (typeof globalThis.gc !== 'function') {
  v8.setFlagsFromString('--expose-gc');
  globalThis.gc = vm.runInNewContext('gc');
}

const entry = new URL('../dist/src/cli/bin.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    'reporter-etl: dist/ is missing; run `npm ci` (or `npm run build`) in the repository first.\n',
  );
  process.exit(2);
}
await import(entry.href);
