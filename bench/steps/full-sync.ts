// Step: a full sync into an empty warehouse, the real CLI as a child process against a fresh emulator
// that records every request (the transfer floor replays them). Reports its time, requests per 1,000
// messages and peak RSS, and leaves the warehouse for the load floor and the incremental step.
// full-sync-capped does the same against an emulator capping pages at --max-page-size rows (as some real
// servers do), so the sync ÷ transfer floor ratio exists at both caps.
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from '../../src/config.js';
import { type BenchContext, syncEnvironment, withBenchEmulator } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { saveRequests } from './replay-recorded.js';
import { runSyncChild } from './run-sync-child.js';
import { statusRequestLevers } from './status-request-levers.js';

async function runFullSync(ctx: BenchContext, capped: boolean): Promise<StepFigures> {
  const maxPageSize = capped ? ctx.options.maxPageSize : undefined;
  const label = capped ? 'full-capped' : 'full';
  const dataDir = join(ctx.dir, capped ? 'synced-capped' : 'synced');
  return withBenchEmulator(ctx, { record: true, maxPageSize }, async (running) => {
    const sync = await runSyncChild(ctx, syncEnvironment(ctx, running.url, dataDir), label);
    const log = running.emulator.requestLog ?? [];
    const requestsFile = saveRequests(ctx, log, label);
    if (log.length !== sync.requests)
      ctx.say(`note: the emulator saw ${log.length} requests, the sync counted ${sync.requests}`);
    const pageSize = Math.min(CONFIG_DEFAULTS.REPORTER_PAGE_SIZE, running.emulator.options.maxPageSize);
    const levers = await statusRequestLevers(join(dataDir, 'warehouse.duckdb'), log, {
      pageSize,
      windowHours: CONFIG_DEFAULTS.REPORTER_WINDOW_HOURS,
    });
    const per1000 = (requests: number) => (requests / Math.max(1, sync.messages)) * 1000;
    if (capped) ctx.cappedSync = { ...sync, dataDir, requestsFile };
    else ctx.fullSync = { ...sync, dataDir, requestsFile };
    return {
      seconds: { value: sync.wallMs / 1000, unit: 's' },
      sessions: { value: sync.sessions, unit: 'count' },
      messages: { value: sync.messages, unit: 'count' },
      requests: { value: sync.requests, unit: 'count' },
      requestsPer1000Messages: {
        value: (sync.requests / Math.max(1, sync.messages)) * 1000,
        unit: 'per 1000',
      },
      statusRequests: {
        value: levers.byClient + levers.bySession + levers.reports,
        unit: 'count',
        note: `messages report tasks ${levers.reports}, messages/by-client ${levers.byClient}, messages/by-session ${levers.bySession}`,
      },
      statusReportRequests: {
        value: levers.reports,
        unit: 'count',
        note: 'create, async events, file and delete of the windows’ messages report tasks',
      },
      requestsPer1000IfStatusesPerSession: {
        value: per1000(levers.other + levers.ifPerSession),
        unit: 'per 1000',
        note: 'the same sync with one messages/by-session read per status session (the design before)',
      },
      requestsPer1000IfStatusesPerClientPerWindow: {
        value: per1000(levers.other + levers.ifPerClientPerWindow),
        unit: 'per 1000',
        note: 'one messages/by-client read per client and window, without the look-ahead',
      },
      peakRssMb: { value: sync.maxRssMb, unit: 'MB' },
      cpuSeconds: { value: sync.cpuSeconds, unit: 's', note: 'user + system CPU of the sync process' },
      maxPageSize: {
        value: running.emulator.options.maxPageSize,
        unit: 'count',
        note: "the emulator's page cap",
      },
    };
  });
}

export const fullSyncStep: BenchStep = {
  id: 'full-sync',
  title: 'Full sync into an empty warehouse',
  needs: [],
  run: (ctx) => runFullSync(ctx, false),
};

export const cappedFullSyncStep: BenchStep = {
  id: 'full-sync-capped',
  title: 'Full sync, pages capped at --max-page-size rows',
  needs: [],
  run: (ctx) => runFullSync(ctx, true),
};
