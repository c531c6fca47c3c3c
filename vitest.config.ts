// vitest configuration: offline, deterministic (TZ=UTC), tests under test/ mirroring src/.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

process.env.TZ = 'UTC';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    environment: 'node',
    // generous: integration tests run real syncs and child processes on a shared 2-core machine
    testTimeout: 90_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: on 2 cores the files ran one at a time while most of
    // them wait on child processes, servers and timers. One more worker than cores keeps both cores busy.
    maxWorkers: availableParallelism() + 1,
    // a worker keeps the modules it imported from one file to the next (each file importing the CLI, DuckDB
    // and the report stack afresh cost ~0.5 CPU-s a file); files share no state but the environment, which
    // unstubEnvs puts back after each test
    isolate: false,
    unstubEnvs: true,
    // as the CLI's bin does: collect-garbage finds gc() without setting a V8 flag at run time
    execArgv: ['--expose-gc'],
    // three workers share two cores: DuckDB on one thread each (REPORTER_DUCKDB_THREADS, read by the CLI children
    // and the sync harness) spent about a quarter less CPU in the statistics tests, same figures
    env: { TZ: 'UTC', REPORTER_DUCKDB_THREADS: '1' },
  },
});
