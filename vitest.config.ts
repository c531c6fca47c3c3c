// vitest configuration: offline, deterministic (TZ=UTC), tests under test/ mirroring src/.
import { defineConfig } from 'vitest/config';

process.env.TZ = 'UTC';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    env: { TZ: 'UTC' },
  },
});
