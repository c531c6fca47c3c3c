// vitest configuration: offline, deterministic (TZ=UTC), tests under test/ mirroring src/.
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
    // as the CLI's bin does: collect-garbage finds gc() without setting a V8 flag at run time
    execArgv: ['--expose-gc'],
    env: { TZ: 'UTC' },
  },
});
