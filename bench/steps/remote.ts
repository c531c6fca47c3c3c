// Step: the full sync against a remote platform — the emulator 60 ms away, letting 120 requests a second
// through (a token bucket with a one-second burst, 429 with Retry-After beyond) — against its floor there: the
// requests it had answered ÷ 120 a second, or × 60 ms ÷ the most it may keep in flight, whichever is larger.
// Then the same sync with 1 % of the answers a random 429 (Retry-After: 1), against the one without; and with
// a fixed 4 in flight (REPORTER_MAX_CONCURRENCY=4, the client before issue 34), to show what adapting saves;
// and against the emulator near (no latency, no limit): what the sync's own work and its steps that wait on
// each other take on this machine, which no pacing of requests can shed; and against a varied server, whose
// report files are not the emulator's own guess (VARIED_REPORT_SHAPE: Russian header names, XLSX only,
// columns shuffled, extra columns), with the statuses requests it made per client (0: every window's
// statuses came from its report).
// Times are the sync's own (its summary's durationMs: no process start-up, which the floor has none of either).
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from '../../src/config.js';
import type { RecordedRequest } from '../../src/emulator/emulator.js';
import type { ReportShape } from '../../src/emulator/reports/report-shape.js';
import { startEmulator } from '../../src/emulator/server.js';
import { type BenchContext, type SyncRunFigures, syncEnvironment } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import type { ResultRow } from '../summarise-results.js';
import { runSyncChild } from './run-sync-child.js';

export const REMOTE_LATENCY_MS = 60;
export const REMOTE_RATE_PER_SECOND = 120;
const RANDOM_429_SHARE = 0.01;

/**
 * The report files of a server that is not the emulator's own guess, the hardest of the shapes to read: Russian
 * header names, XLSX only (a create asking CSV answered 400), the columns shuffled, two extra columns (a
 * numeric `ID сообщения` and a status-like `Статус обращения`).
 */
export const VARIED_REPORT_SHAPE: Partial<ReportShape> = {
  header: 'ru',
  csv: 'refused',
  columnOrder: 'shuffled',
  extraColumns: true,
};

/** Requests that read statuses per client (messages/by-client, by-session): 0 when every report was read. */
export function perClientStatusRequests(log: readonly RecordedRequest[]): number {
  return log.filter((r) => /\/messages\/by-(client|session)(\?|$)/.test(r.url)).length;
}

interface RemoteRun extends SyncRunFigures {
  /** 429s the emulator answered: at random, and by its rate limit. */
  random429: number;
  limited429: number;
  perClientRequests: number;
}

/**
 * One full sync (CLI child, empty warehouse) against a fresh emulator, remote unless `near`; `random429` of
 * the answers 429.
 */
async function syncRemote(
  ctx: BenchContext,
  label: string,
  random429: number,
  env: Record<string, string> = {},
  near = false,
  reportShape?: Partial<ReportShape>,
): Promise<RemoteRun> {
  const running = await startEmulator({
    sessions: ctx.options.sessions,
    days: ctx.options.days,
    seed: ctx.options.seed,
    now: ctx.emulatorNow,
    ...(near
      ? {}
      : { latencyMs: REMOTE_LATENCY_MS, rateLimit: { requests: REMOTE_RATE_PER_SECOND, perMs: 1000 } }),
    ...(reportShape === undefined ? {} : { reportShape }),
  });
  const log: RecordedRequest[] = [];
  running.emulator.requestLog = log;
  try {
    if (random429 > 0) running.emulator.faults.setRates({ status429: random429 });
    const dataDir = join(ctx.dir, `remote-${label}`);
    const sync = await runSyncChild(ctx, { ...syncEnvironment(ctx, running.url, dataDir), ...env }, label);
    return {
      ...sync,
      random429: running.emulator.faults.firedByRate.status429 ?? 0,
      limited429: running.emulator.rateLimit?.rejectedAt.length ?? 0,
      perClientRequests: perClientStatusRequests(log),
    };
  } finally {
    await running.close();
  }
}

/** The least time the server allows for the requests it answered: its rate, or round trips at the most in flight. */
function floorSeconds(run: RemoteRun, maxInFlight: number): number {
  const answered = run.requests - (run.throttled ?? 0);
  return Math.max(answered / REMOTE_RATE_PER_SECOND, (answered * REMOTE_LATENCY_MS) / 1000 / maxInFlight);
}

/** A run's figures under `prefix`: its time, requests, 429s (the emulator's count beside the client's), in flight. */
function runFigures(prefix: string, run: RemoteRun): StepFigures {
  return {
    [`${prefix}Seconds`]: { value: run.durationMs / 1000, unit: 's', note: "the sync's own time" },
    [`${prefix}WallSeconds`]: { value: run.wallMs / 1000, unit: 's', note: 'the process, start to exit' },
    [`${prefix}Requests`]: { value: run.requests, unit: 'count' },
    [`${prefix}Throttled`]: {
      value: run.throttled ?? null,
      unit: 'count',
      note: `429s counted by the sync; the emulator answered ${run.random429} at random and ${run.limited429} by its rate limit`,
    },
    [`${prefix}ConcurrencyReached`]: { value: run.concurrencyReached ?? null, unit: 'count' },
    [`${prefix}PeakRssMb`]: { value: run.maxRssMb, unit: 'MB', note: 'the sync process' },
    [`${prefix}CpuSeconds`]: {
      value: run.cpuSeconds,
      unit: 's',
      note: 'user + system CPU of the sync process',
    },
  };
}

export const remoteStep: BenchStep = {
  id: 'remote',
  title: `Full sync against a remote platform (${REMOTE_LATENCY_MS} ms, ${REMOTE_RATE_PER_SECOND} requests/s)`,
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const maxInFlight = CONFIG_DEFAULTS.REPORTER_MAX_CONCURRENCY;
    const adaptive = await syncRemote(ctx, 'adaptive', 0);
    ctx.say(`bench: remote: ${adaptive.requests} requests in ${(adaptive.durationMs / 1000).toFixed(1)} s`);
    const random = await syncRemote(ctx, 'random-429', RANDOM_429_SHARE);
    const near = await syncRemote(ctx, 'near', 0, {}, true);
    const fixed = await syncRemote(ctx, 'fixed-4', 0, {
      REPORTER_MAX_CONCURRENCY: '4',
      REPORTER_CONCURRENCY: '4',
    });
    const varied = await syncRemote(ctx, 'varied', 0, {}, false, VARIED_REPORT_SHAPE);
    ctx.say(
      `bench: remote: varied report files: ${varied.requests} requests in ${(varied.durationMs / 1000).toFixed(1)} s, ${varied.perClientRequests} statuses read per client`,
    );
    return {
      ...runFigures('adaptive', adaptive),
      floorSeconds: {
        value: floorSeconds(adaptive, maxInFlight),
        unit: 's',
        note: `requests answered ÷ ${REMOTE_RATE_PER_SECOND}/s or × ${REMOTE_LATENCY_MS} ms ÷ ${maxInFlight} in flight, the larger`,
      },
      ...runFigures('random429', random),
      ...runFigures('fixed4', fixed),
      ...runFigures('near', near),
      fixed4FloorSeconds: { value: floorSeconds(fixed, 4), unit: 's', note: 'its floor with 4 in flight' },
      ...runFigures('varied', varied),
      variedPerClientRequests: {
        value: varied.perClientRequests,
        unit: 'count',
        note: 'messages/by-client and by-session requests: 0 when every window took its statuses from its report',
      },
      adaptivePerClientRequests: { value: adaptive.perClientRequests, unit: 'count' },
    };
  },
};

/** The step's rows of the report: the ratios against its floor and against itself without 429s. */
export function remoteRows(value: (figure: string) => number | undefined): ResultRow[] {
  const rows: ResultRow[] = [];
  const adaptive = value('adaptiveSeconds');
  const floor = value('floorSeconds');
  const random = value('random429Seconds');
  const fixed = value('fixed4Seconds');
  const where = `${REMOTE_LATENCY_MS} ms away, ${REMOTE_RATE_PER_SECOND} requests/s`;
  if (adaptive !== undefined && floor !== undefined)
    rows.push({
      group: 'ratio',
      name: `full sync against a remote platform (${where}) ÷ its floor there`,
      value: adaptive / floor,
      unit: 'ratio',
      target: '≤ 1.3',
      met: adaptive / floor <= 1.3,
      note: `reached ${value('adaptiveConcurrencyReached') ?? '?'} in flight, ${value('adaptiveThrottled') ?? '?'} answers 429`,
    });
  if (adaptive !== undefined && random !== undefined)
    rows.push({
      group: 'ratio',
      name: `the same with 1 % random 429s (Retry-After: 1) ÷ without`,
      value: random / adaptive,
      unit: 'ratio',
      target: '≤ 1.3',
      met: random / adaptive <= 1.3,
      note: `${value('random429Throttled') ?? '?'} answers 429, reached ${value('random429ConcurrencyReached') ?? '?'} in flight`,
    });
  const near = value('nearSeconds');
  if (near !== undefined && adaptive !== undefined && floor !== undefined)
    rows.push({
      group: 'ratio',
      name: 'the same ÷ the larger of its floor there and the same sync near',
      value: adaptive / Math.max(floor, near),
      unit: 'ratio',
      target: '≤ 1.3',
      met: adaptive / Math.max(floor, near) <= 1.3,
      note: "near: no latency, no limit — the sync's own work and its steps that wait on each other, which no pacing of requests can shed, on this machine at this load",
    });
  const varied = value('variedSeconds');
  if (varied !== undefined && adaptive !== undefined)
    rows.push({
      group: 'ratio',
      name: "the same against report files not the emulator's (Russian header, XLSX only, shuffled, extra columns) ÷ the emulator's",
      value: varied / adaptive,
      unit: 'ratio',
      target: '≤ 1.3',
      met: varied / adaptive <= 1.3,
      note: `${value('variedPerClientRequests') ?? '?'} statuses requests per client (0: every window's from its report), ${value('variedRequests') ?? '?'} requests against ${value('adaptiveRequests') ?? '?'}`,
    });
  if (fixed !== undefined && adaptive !== undefined)
    rows.push({
      group: 'ratio',
      name: 'the same with a fixed 4 in flight (REPORTER_MAX_CONCURRENCY=4) ÷ adapting',
      value: fixed / adaptive,
      unit: 'ratio',
      note: 'what adapting the requests in flight saves against a remote platform',
    });
  return rows;
}
