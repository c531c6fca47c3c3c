#!/bin/sh
//usr/bin/env true; export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}" MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-4194304}"; exec node "$0" "$@"
// The reporter-etl executable: runs the compiled CLI (dist/, built by `npm ci` through `prepare`). It exposes
// V8's gc() first, before any of the CLI (DuckDB, exceljs) is loaded: src/process/collect-garbage.ts runs a full
// collection now and then, because DuckDB's native memory is freed only when V8 finalizes its wrappers.
// Not by running node again with --expose-gc: the second process doubled the start-up (`--help` 5 runs:
// ~0.3-0.5 s -> ~0.7-1.2 s on the loaded 2-core machine), and a Ctrl-C or a service stop that signals the
// whole process group would reach the CLI twice, the second signal killing its graceful stop.
// `node --expose-gc bin/reporter-etl.js` is honoured as it is.
// Its first two lines are read by sh when the file is run as a command (`reporter-etl`, npm's bin link, a
// service's ExecStart): sh runs `//usr/bin/env true` (nothing), sets glibc's MALLOC_ARENA_MAX and
// MALLOC_MMAP_THRESHOLD_ unless they are set already, and execs node on this same file: one process with the same pid, so signals reach the CLI as
// before. To node the first line is skipped and the second is a comment. Why: glibc gives each thread that
// allocates an arena of its own (node's 4 libuv threads run DuckDB's statements, V8 has 4 more), and freed
// memory stays in them: at the peak of a full sync of 1M messages, 75 MB of its 260 MB of anonymous memory was
// free memory held by 11 arenas (malloc_stats). With 2 arenas its peak RSS fell from 401-417 MB to 358-379 MB,
// CPU unchanged (bench/README.md). And glibc raises its mmap threshold (up to 32 MB) each time a large block
// is freed, after which the freed memory of large typed arrays and DuckDB's queries stays in the heap:
// `unhandled` at 1M messages peaked at 461-586 MB against 383-484 MB with the threshold fixed
// (MALLOC_MMAP_THRESHOLD_; at 4 MB the full sync's CPU was unchanged, at 128 KB-512 KB about 5-10 % more:
// docs/unhandled.md#memory-and-time). glibc reads the settings as the process starts, so JavaScript cannot set
// them; `node bin/reporter-etl.js` goes without them (set them there). Other C libraries ignore them.
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
