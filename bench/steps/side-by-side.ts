// Step: the sync beside a careful client, both measured from outside against the same remote platform — a
// near emulator behind an independent proxy (children/remote-proxy.ts: 60 ms on every answer, 120 requests
// a second with a one-second burst, 429 + Retry-After beyond). The careful client (children/careful-client.ts,
// written from the API contract: 6 in flight, sessions per window, messages and statuses per session) and
// `reporter-etl sync` (the CLI) each fill their own empty store; their wall times, start to exit, are
// compared, and their sessions and messages must be the same counts. Then the sync again with the proxy
// refusing the `messages` report tasks (403), so that it reads its statuses per client; and against the same
// emulator writing its report files as a server that is not its own guess might (remote.ts's
// VARIED_REPORT_SHAPE: Russian header names, XLSX only, columns shuffled, extra columns), the statuses
// requests it made per client counted from the emulator's request log (0: every window's from its report).
import { join } from 'node:path';
import type { RecordedRequest } from '../../src/emulator/emulator.js';
import { DEFAULT_REPORT_SHAPE } from '../../src/emulator/reports/report-shape.js';
import { startEmulator } from '../../src/emulator/server.js';
import { type BenchContext, type SyncRunFigures, syncEnvironment } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { childScript, runChild } from '../run-child.js';
import type { ResultRow } from '../summarise-results.js';
import {
  perClientStatusRequests,
  REMOTE_LATENCY_MS,
  REMOTE_RATE_PER_SECOND,
  VARIED_REPORT_SHAPE,
} from './remote.js';
import { runSyncChild } from './run-sync-child.js';
import { startServer, stop } from './webhooks.js';

const DAY_MS = 86_400_000;

interface CarefulRun {
  sessions: number;
  messages: number;
  requests: number;
  throttled: number;
  wallMs: number;
}

/** Runs `use` with a proxy in front of `upstream` (refusing the messages reports or not), stopped after. */
async function withProxy<T>(upstream: string, refuse: boolean, use: (url: string) => Promise<T>): Promise<T> {
  const args = ['--upstream', upstream, '--latency-ms', String(REMOTE_LATENCY_MS)];
  const proxy = await startServer(
    childScript('remote-proxy.js'),
    [...args, '--rate', String(REMOTE_RATE_PER_SECOND), ...(refuse ? ['--refuse-message-reports'] : [])],
    {},
  );
  try {
    return await use(`http://127.0.0.1:${proxy.port}`);
  } finally {
    await stop(proxy.child);
  }
}

async function runCareful(ctx: BenchContext, url: string, project: string): Promise<CarefulRun> {
  const to = Date.now();
  const child = await runChild(
    childScript('careful-client.js'),
    [
      ...['--base', url, '--token', ctx.token, '--project', project],
      ...[
        '--from',
        new Date(to - (ctx.options.days + 1) * DAY_MS).toISOString(),
        '--to',
        new Date(to).toISOString(),
      ],
      ...['--out', join(ctx.dir, 'careful-client')],
    ],
    { resourcesFile: join(ctx.dir, 'resources-careful.json') },
  );
  if (child.exitCode !== 0) throw new Error(`the careful client failed: ${child.stderr.slice(-2000)}`);
  return { ...(JSON.parse(child.stdout) as Omit<CarefulRun, 'wallMs'>), wallMs: child.wallMs };
}

async function runSync(ctx: BenchContext, url: string, label: string): Promise<SyncRunFigures> {
  // the sync ends its range at the platform's clock (the emulator's, fixed at the bench's start) minus the
  // safety lag, where the careful client reads up to this machine's now: with no lag both read every session
  // the emulator holds (with the default 5 minutes the sync left out the last few, and the counts differed)
  const env = {
    ...syncEnvironment(ctx, url, join(ctx.dir, `side-by-side-${label}`)),
    REPORTER_SAFETY_LAG_MINUTES: '0',
  };
  return runSyncChild(ctx, env, label);
}

/** The stores must agree: the same sessions and messages, else the comparison means nothing. */
function checkSameCounts(careful: CarefulRun, sync: SyncRunFigures, label: string): void {
  if (careful.sessions !== sync.sessions || careful.messages !== sync.messages)
    throw new Error(
      `side-by-side: the careful client stored ${careful.sessions} sessions and ${careful.messages} messages, the ${label} sync ${sync.sessions} and ${sync.messages}`,
    );
}

export const sideBySideStep: BenchStep = {
  id: 'side-by-side',
  title: `The sync beside a careful client through a proxy (${REMOTE_LATENCY_MS} ms, ${REMOTE_RATE_PER_SECOND} requests/s)`,
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const running = await startEmulator({
      sessions: ctx.options.sessions,
      days: ctx.options.days,
      seed: ctx.options.seed,
      now: ctx.emulatorNow,
    });
    try {
      const careful = await withProxy(running.url, false, (url) =>
        runCareful(ctx, url, running.emulator.options.projects[0]!),
      );
      ctx.say(
        `bench: side-by-side: careful client ${careful.requests} requests in ${(careful.wallMs / 1000).toFixed(1)} s`,
      );
      const sync = await withProxy(running.url, false, (url) => runSync(ctx, url, 'reports'));
      const perClient = await withProxy(running.url, true, (url) => runSync(ctx, url, 'per-client'));
      running.emulator.reportShape = { ...DEFAULT_REPORT_SHAPE, ...VARIED_REPORT_SHAPE };
      const log: RecordedRequest[] = [];
      running.emulator.requestLog = log;
      const varied = await withProxy(running.url, false, (url) => runSync(ctx, url, 'varied'));
      running.emulator.requestLog = undefined;
      const variedPerClient = perClientStatusRequests(log);
      ctx.say(
        `bench: side-by-side: varied report files: ${(varied.wallMs / 1000).toFixed(1)} s, ${variedPerClient} statuses read per client`,
      );
      checkSameCounts(careful, sync, 'reports');
      checkSameCounts(careful, perClient, 'per-client');
      checkSameCounts(careful, varied, 'varied');
      return {
        carefulSeconds: { value: careful.wallMs / 1000, unit: 's', note: 'the process, start to exit' },
        carefulRequests: {
          value: careful.requests,
          unit: 'count',
          note: `${careful.throttled} answered 429`,
        },
        syncSeconds: { value: sync.wallMs / 1000, unit: 's', note: 'reporter-etl sync, start to exit' },
        syncRequests: { value: sync.requests, unit: 'count', note: `${sync.throttled ?? '?'} answered 429` },
        perClientSeconds: {
          value: perClient.wallMs / 1000,
          unit: 's',
          note: 'the same with the messages reports refused (403): statuses per client',
        },
        perClientRequests: { value: perClient.requests, unit: 'count' },
        variedSeconds: {
          value: varied.wallMs / 1000,
          unit: 's',
          note: "the sync against report files not the emulator's (Russian header, XLSX only, shuffled, extra columns)",
        },
        variedRequests: { value: varied.requests, unit: 'count' },
        variedPerClientRequests: {
          value: variedPerClient,
          unit: 'count',
          note: 'its messages/by-client and by-session requests: 0 when every window took its statuses from its report',
        },
        sessions: { value: sync.sessions, unit: 'count', note: 'the same in both stores (checked)' },
        messages: { value: sync.messages, unit: 'count', note: 'the same in both stores (checked)' },
      };
    } finally {
      await running.close();
    }
  },
};

/** The step's rows of the report: the sync's time against the careful client's, with and without reports. */
export function sideBySideRows(value: (figure: string) => number | undefined): ResultRow[] {
  const careful = value('carefulSeconds');
  if (careful === undefined) return [];
  const rows: ResultRow[] = [];
  const sync = value('syncSeconds');
  const perClient = value('perClientSeconds');
  const requests = (figure: string) => value(figure) ?? '?';
  if (sync !== undefined)
    rows.push({
      group: 'ratio',
      name: 'sync ÷ a careful client, side by side through a remote proxy (wall, from outside)',
      value: sync / careful,
      unit: 'ratio',
      target: '≤ 0.35',
      met: sync / careful <= 0.35,
      note: `${requests('syncRequests')} requests against ${requests('carefulRequests')}`,
    });
  const varied = value('variedSeconds');
  if (varied !== undefined)
    rows.push({
      group: 'ratio',
      name: "the same against report files not the emulator's (Russian header, XLSX only, shuffled, extra columns) ÷ the careful client",
      value: varied / careful,
      unit: 'ratio',
      target: '≤ 0.2',
      met: varied / careful <= 0.2,
      note: `${requests('variedRequests')} requests against ${requests('carefulRequests')}; ${requests('variedPerClientRequests')} statuses requests per client`,
    });
  if (perClient !== undefined)
    rows.push({
      group: 'ratio',
      name: 'the same with the messages reports refused (statuses per client) ÷ the careful client',
      value: perClient / careful,
      unit: 'ratio',
      note: `${requests('perClientRequests')} requests against ${requests('carefulRequests')}`,
    });
  return rows;
}
