// The demo's flow: starts the emulator in-process with a seeded week of data, sets the environment the
// commands read, and runs each step (the Chat API, sync, webhooks, events, stats, reports, alerts, the knowledge
// base) as a user would run the command, recording in the folder's manifest what each step writes before it
// runs. A signal stops it between steps (75). Loaded by `demo` only once its folder is accepted.

import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../config.js';
import { defaultChatApiToken } from '../../emulator/chatapi/channels.js';
import { DEFAULT_V1_TOKEN } from '../../emulator/emulator.js';
import { startEmulator } from '../../emulator/server.js';
import { EXIT } from '../../errors.js';
import { formatCount } from '../../text/format-figures.js';
import { offsetAt } from '../../time/parse-zoned-time.js';
import type { CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { receiveDemoWebhooks, talkThroughChatApi } from '../demo-chat-api.js';
import { DEMO_KB_QUESTIONS, demoKbEnv, writeDemoKbQuestions } from '../demo-kb.js';
import { showDemoNotification } from '../demo-pushgate.js';
import { chatApiEventsCommand } from './chatapi-events.js';
import { type DemoManifest, recordCreated } from './demo-folder.js';
import { kbCommand } from './kb.js';
import { platformReportCommand } from './platform-report.js';
import { runReport } from './report.js';
import { statsCommand } from './stats.js';
import { syncCommand } from './sync.js';

const DEMO_ZONE = 'Europe/Moscow';

/** YYYY-MM-DD of an instant in a zone (its wall-clock time, as the statistics compute it). */
function localDate(t: number, timeZone: string): string {
  return new Date(t + offsetAt(t, timeZone)).toISOString().slice(0, 10);
}

/** Output of a step, indented under its heading; the step sees the demo's stop signal. */
function indented(io: CommandIo, signal: AbortSignal): CommandIo {
  return {
    out: (line) => io.out(`  ${line.split('\n').join('\n  ')}`),
    err: (line) => io.err(`  ${line}`),
    isTty: false,
    signal,
  };
}

async function step(io: CommandIo, title: string, run: () => Promise<number>): Promise<number> {
  io.out(`\n== ${title}`);
  const started = Date.now();
  const code = await run();
  io.out(`   (${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code})`);
  return code;
}

/** One step of the demo: what it shows, the files it writes (listed before it runs), and what it runs. */
interface DemoStep {
  title: string;
  writes: string[];
  run: () => Promise<number>;
}

/** What the steps share: the emulator, the Chat API token, the indented output and the stop signal. */
interface DemoWorld {
  running: Awaited<ReturnType<typeof startEmulator>>;
  chatToken: string;
  sub: CommandIo;
  signal: AbortSignal;
  kbQuestionsFile: string;
}

export async function runDemo(
  io: CommandIo,
  dataDir: string,
  sessions: number,
  manifest: DemoManifest,
  signal: AbortSignal,
  stoppedBy: () => NodeJS.Signals | undefined,
): Promise<number> {
  const started = Date.now();
  // the platform's clock is this machine's (its Date header): the sync believes neither ahead of the other
  const running = await startEmulator({
    sessions,
    days: 7,
    now: Math.floor(Date.now() / 1000) * 1000,
    chatApiEventsWaitMs: 1_000,
  });
  const chatToken = defaultChatApiToken('shop-bot');
  io.out(
    `Emulator: ${running.url} · ${formatCount(running.emulator.options.sessions)} sessions over 7 days · token ${DEFAULT_V1_TOKEN}`,
  );
  setDemoEnvironment(running, dataDir, chatToken);
  const kbQuestionsFile = join(dataDir, 'kb-questions.csv');
  const sub = indented(io, signal);
  const steps = listDemoSteps({ running, chatToken, sub, signal, kbQuestionsFile });
  try {
    const codes: number[] = [];
    for (const demoStep of steps) {
      if (!signal.aborted) codes.push(await runDemoStep(io, sub, demoStep, { dataDir, manifest, signal }));
      if (signal.aborted) {
        io.out(
          `\nStopped by ${stoppedBy() ?? 'a signal'}: the remaining steps were not run. What was written is in ${dataDir}.`,
        );
        return EXIT.tryLater;
      }
    }
    printWritten(io, dataDir, kbQuestionsFile, started);
    return codes.find((c) => c !== 0) ?? 0;
  } finally {
    await running.close();
  }
}

/** The commands read their configuration from the environment, as they do for a user: the demo sets it. */
function setDemoEnvironment(running: DemoWorld['running'], dataDir: string, chatToken: string): void {
  Object.assign(process.env, {
    REPORTER_BASE_URL: running.url,
    REPORTER_TOKEN: DEFAULT_V1_TOKEN,
    REPORTER_API: 'v1',
    REPORTER_PROJECT: 'shop-bot',
    REPORTER_DATA_DIR: dataDir,
    REPORTER_HISTORY_DAYS: '8',
    REPORTER_CONCURRENCY: '8',
    REPORTER_CHATAPI_CHANNELS: `site=${chatToken}`,
    ...demoKbEnv(running),
    LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
    // the demo is read by people, piped too (`npm run demo | tee`): its steps' log lines are human lines
    LOG_FORMAT: process.env['LOG_FORMAT'] ?? 'pretty',
  });
}

/** One step, timed; a step stopped by the signal says so and gives exit 75 instead of failing the demo. */
async function runDemoStep(
  io: CommandIo,
  sub: CommandIo,
  { title, writes, run }: DemoStep,
  where: { dataDir: string; manifest: DemoManifest; signal: AbortSignal },
): Promise<number> {
  const { dataDir, manifest, signal } = where;
  // listed before the step writes, so that even a killed demo leaves them listed
  recordCreated(dataDir, manifest, writes);
  const code = await step(io, title, async () => {
    try {
      return await run();
    } catch (error) {
      if (!signal.aborted) throw error;
      sub.err(`stopped: ${(error as Error).message}`);
      return EXIT.tryLater;
    }
  });
  recordCreated(dataDir, manifest);
  return code;
}

/** Where the demo wrote, how long it took, and what to try next. */
function printWritten(io: CommandIo, dataDir: string, kbQuestionsFile: string, started: number): void {
  io.out('\nWritten:');
  io.out(`  warehouse         ${resolve(dataDir, 'warehouse.duckdb')}`);
  io.out(`  reports           ${resolve(dataDir, 'reports')}/`);
  io.out(`  platform reports  ${resolve(dataDir, 'platform-reports')}/`);
  io.out(`  kb questions      ${kbQuestionsFile}`);
  io.out(
    `Done in ${((Date.now() - started) / 1000).toFixed(1)} s. Next, with REPORTER_DATA_DIR=${dataDir}: ` +
      'reporter-etl stats --json · reporter-etl report --list · reporter-etl runs',
  );
  const page = readdirSync(resolve(dataDir, 'reports')).find((f) => /^summary_.*\.html$/.test(f));
  if (page !== undefined) io.out(`Open in a browser: ${resolve(dataDir, 'reports', page)}`);
}

/** The demo's steps in order: the Chat API, sync, webhooks, events, stats, reports, alerts, the knowledge base. */
function listDemoSteps(world: DemoWorld): DemoStep[] {
  const { running, chatToken, sub, signal, kbQuestionsFile } = world;
  return [
    {
      title: 'a customer app talks to the bot through the Chat API (channel "site")',
      writes: [],
      run: () => talkThroughChatApi(running.url, chatToken, sub),
    },
    {
      title: "sync (the Reporter, then the Chat API channel's history)",
      writes: ['warehouse.duckdb'],
      run: () => syncCommand.run([], sub),
    },
    {
      title:
        'webhooks: the app asks asynchronously, the platform pushes the answers to reporter-etl webhooks',
      writes: ['webhooks/'],
      run: () => {
        const config = loadConfig(process.env);
        return receiveDemoWebhooks(running, chatToken, config, createCommandLogger(config), sub);
      },
    },
    {
      title: 'chatapi-events (bot answers and agent replies of the channel)',
      writes: [],
      run: () => chatApiEventsCommand.run([], sub),
    },
    {
      title: `stats (${DEMO_ZONE}, by day)`,
      writes: [],
      run: () => statsCommand.run(['--tz', DEMO_ZONE, '--top', '5'], sub),
    },
    ...(['xlsx', 'html'] as const).map(
      (format): DemoStep => ({
        title: `report summary${format === 'html' ? ' --format html' : ''} (the last 7 whole days in ${DEMO_ZONE})`,
        writes: ['reports/'],
        run: () =>
          runReport(
            [
              'summary',
              '--from',
              localDate(running.emulator.now() - 7 * 86_400_000, DEMO_ZONE),
              '--to',
              localDate(running.emulator.now(), DEMO_ZONE),
              '--tz',
              DEMO_ZONE,
              '--format',
              format,
            ],
            sub,
            { env: process.env, now: Date.now, signal },
          ),
      }),
    ),
    {
      title: 'platform-report messages --reconcile (yesterday)',
      writes: ['platform-reports/'],
      run: () => platformReportCommand.run(['messages', '--reconcile'], sub),
    },
    {
      title: 'run sync with an alert rule: the notification arrives through Pushgate',
      writes: [],
      run: () => showDemoNotification(running, sub),
    },
    {
      title: 'kb sync: a snapshot of the knowledge base (the emulated service at /kb)',
      writes: [],
      run: () => kbCommand.run(['sync'], sub),
    },
    {
      title: `kb eval: ${DEMO_KB_QUESTIONS} questions written from the emulator's truth`,
      writes: ['kb-questions.csv'],
      run: () => {
        writeDemoKbQuestions(running, kbQuestionsFile);
        return kbCommand.run(['eval', '--questions', kbQuestionsFile], sub);
      },
    },
    {
      title: `report kb-eval (the day of the latest run, in ${DEMO_ZONE})`,
      writes: ['reports/'],
      run: () =>
        runReport(['kb-eval', '--tz', DEMO_ZONE], sub, {
          env: process.env,
          now: Date.now,
          signal,
        }),
    },
  ];
}
