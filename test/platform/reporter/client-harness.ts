// Test helper of the Reporter client tests: a small emulator on port 0 and a client of either generation.
// Assertions read the emulator's state in-process (its own truth), never the client's answers alone.
import { DEFAULT_V1_TOKEN, defaultLegacyToken } from '../../../src/emulator/emulator.js';
import type { ProjectData } from '../../../src/emulator/project-data.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { ReporterHttp } from '../../../src/platform/reporter/reporter-http.js';
import { TEST_NOW } from '../../helpers/emulator-client.js';

export interface ClientHarness {
  running: RunningEmulator;
  p: ProjectData;
  v1: ReporterHttp;
  legacy: ReporterHttp;
  now(): number;
  close(): Promise<void>;
}

export async function createClientHarness(sessions = 300): Promise<ClientHarness> {
  const running = await startEmulator({ port: 0, sessions, days: 2, now: TEST_NOW });
  const common = { baseUrl: running.url, retries: 1, backoffBaseMs: 1, rateLimitPerMinute: 1_000_000 };
  const v1 = new ReporterHttp({ ...common, token: DEFAULT_V1_TOKEN, api: 'v1', project: 'shop-bot' });
  const legacy = new ReporterHttp({ ...common, token: defaultLegacyToken('shop-bot'), api: 'legacy' });
  return {
    running,
    p: running.emulator.project('shop-bot'),
    v1,
    legacy,
    now: () => running.emulator.now(),
    async close() {
      await v1.close();
      await legacy.close();
      await running.close();
    },
  };
}
