// `reporter-etl demo`: the whole flow for a newcomer, with no configuration: starts the emulator
// in-process with a seeded week of data, syncs it into a demo warehouse, prints the statistics,
// builds a platform report and reconciles it, then says where everything was written. It writes only into a
// folder of its own (new, empty, or marked by an earlier demo) and never removes anything it did not make: the
// marker lists what it wrote, and a folder holding anything else is refused. A signal stops it between steps.

import { readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { loadConfig } from '../../config.js';
import { defaultChatApiToken } from '../../emulator/chatapi/channels.js';
import { DEFAULT_V1_TOKEN } from '../../emulator/emulator.js';
import { startEmulator } from '../../emulator/server.js';
import { EXIT, UsageError } from '../../errors.js';
import { makeDirectory } from '../../files/make-directory.js';
import { TRUSTED_FOLDER_MODE } from '../../files/trusted-folder.js';
import { listenForShutdown, stoppingMessage } from '../../schedule/shutdown-signals.js';
import { formatCount } from '../../text/format-figures.js';
import { offsetAt } from '../../time/parse-zoned-time.js';
import { intOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { receiveDemoWebhooks, talkThroughChatApi } from '../demo-chat-api.js';
import { DEMO_KB_QUESTIONS, demoKbEnv, writeDemoKbQuestions } from '../demo-kb.js';
import { showDemoNotification } from '../demo-pushgate.js';
import { chatApiEventsCommand } from './chatapi-events.js';
import { kbCommand } from './kb.js';
import { platformReportCommand } from './platform-report.js';
import { runReport } from './report.js';
import { statsCommand } from './stats.js';
import { syncCommand } from './sync.js';

/**
 * The file that marks a folder the demo made, and lists (its manifest) every file and folder the demo wrote
 * there: a rerun removes exactly those, and refuses the folder if it holds anything else.
 */
export const DEMO_MARKER = '.reporter-etl-demo';

const HELP = `reporter-etl demo [--sessions N] [--data-dir DIR] [--keep]

Runs the whole flow against the built-in emulator, with no configuration:
  1. starts the emulator in this process (a seeded week of data, --sessions, default 3000): the Reporter
     API, and the Chat API of the same world (channel "site")
  2. a customer's app talks to the bot through the Chat API: a few questions, one handed to an agent
  3. reporter-etl sync        → DIR/warehouse.duckdb: the Reporter's data, then the channel's history
  4. reporter-etl webhooks (in this process): two questions asked asynchronously, whose answers the platform
     pushes to it → chatapi_webhook_events
  5. reporter-etl chatapi-events
                              → the channel's events (bot answers, agent replies) in chatapi_events
  6. reporter-etl stats       → the week's figures, by day in Europe/Moscow (the delivery funnel with chatapi)
  7. reporter-etl report summary (twice: XLSX, then --format html)
                              → DIR/reports/summary_<first day>_<last day>.xlsx: the last 7 whole days in
                                Europe/Moscow, with KPIs, tables and charts, for Excel or LibreOffice,
                                and .html, the same as one page for a browser
  8. reporter-etl platform-report messages --reconcile
                              → DIR/platform-reports/, compared with the warehouse
  9. reporter-etl run sync with REPORTER_PUSHGATE_URL and an alert rule that holds (any unrecognised
     question in the last 24 h): the rule fires and the run's notification arrives at the emulated Pushgate, shown as
     received
 10. reporter-etl kb sync     → a snapshot of the emulated knowledge base (sources, integrations, segments,
                                API keys) in the warehouse
 11. reporter-etl kb eval --questions DIR/kb-questions.csv
                              → ${DEMO_KB_QUESTIONS} questions written from the emulator's truth (the source of each and
                                the text its answer must contain): hit@1, hit@5, MRR, answers, latency
 12. reporter-etl report kb-eval
                              → DIR/reports/kb-eval_<today>_<today>.xlsx: the run's figures and worst questions
and prints the paths of what it wrote, last the HTML summary to open. DIR defaults to ./data/demo.
Next steps it suggests: the other reports (reporter-etl report --list) and the scheduler
(reporter-etl schedule --list; reporter-etl run sync).

The demo may only remove what it created. It writes into a new or empty DIR, which it marks with a file
named ${DEMO_MARKER} listing every file and folder it writes there; a rerun into that DIR removes exactly
those first (unless --keep). A DIR that holds anything the demo did not write (your warehouse, a file you
added, a folder with a copied or older marker), or that holds the working folder, is refused (exit 2) and
left untouched.

SIGTERM or Ctrl-C stops the demo: the step in progress stops (the sync at a window boundary), no further
step runs, and it exits 75.

Options:
  --sessions N     sessions in the emulator's week (default 3000; more makes every step slower)
  --data-dir DIR   where it writes (default ./data/demo): a new or empty folder, or one an earlier demo marked
  --keep           keep what an earlier demo wrote in DIR instead of removing it first

Needs no setting: REPORTER_TOKEN, REPORTER_BASE_URL and REPORTER_DATA_DIR are ignored (the emulator's are used).

Exit codes: 0 ok; a step's own code when one did not succeed (1 failed, 3 partial: its output says which);
2 DIR is refused (not the demo's, or a file); 75 stopped by SIGTERM or Ctrl-C.

Examples:
  reporter-etl demo
  reporter-etl demo --sessions 20000 --data-dir /tmp/demo
  REPORTER_DATA_DIR=/tmp/demo reporter-etl stats --tz Europe/Moscow     # then look around by hand
`;

const DEMO_ZONE = 'Europe/Moscow';
/** DuckDB's (and the warehouse's) transient siblings of a warehouse file: `<file>.wal` etc. */
const TRANSIENT_FILES = ['.wal', '.waiting'];
const TRANSIENT_FOLDER = '.tmp';
const SHOWN_FOREIGN = 5;

/** Whether `inner` is `outer` or lies inside it. */
function isWithin(inner: string, outer: string): boolean {
  const path = relative(outer, inner);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
}

/**
 * What the demo wrote into its folder: paths relative to it with `/` separators, folders ending in `/`.
 * Kept in the marker file with the folder's real path, so a marker copied into another folder lists nothing.
 */
interface DemoManifest {
  folder: string;
  created: Set<string>;
}

function writeManifest(dir: string, manifest: DemoManifest): void {
  const body = {
    note:
      'Made by `reporter-etl demo`. A rerun removes exactly the files and folders listed in "created", ' +
      'and refuses this folder if it holds anything else.',
    folder: manifest.folder,
    created: [...manifest.created].sort(),
  };
  writeFileSync(join(dir, DEMO_MARKER), `${JSON.stringify(body, null, 2)}\n`);
}

/** A relative path the manifest may list: no `..`, no absolute path, no empty part. */
function isSafeEntry(entry: string): boolean {
  const parts = (entry.endsWith('/') ? entry.slice(0, -1) : entry).split('/');
  return parts.every((part) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\'));
}

/** The marker's manifest, or undefined for an older demo's marker (text), a damaged or a foreign one. */
function readManifest(dir: string): DemoManifest | undefined {
  try {
    const body = JSON.parse(readFileSync(join(dir, DEMO_MARKER), 'utf8')) as unknown;
    if (typeof body !== 'object' || body === null) return undefined;
    const { folder, created } = body as { folder?: unknown; created?: unknown };
    if (typeof folder !== 'string' || !Array.isArray(created)) return undefined;
    if (!created.every((e): e is string => typeof e === 'string' && isSafeEntry(e))) return undefined;
    return { folder, created: new Set(created) };
  } catch {
    return undefined;
  }
}

/** Every file and folder under `dir` (folders end in `/`), without following symbolic links; not the marker. */
function listTree(dir: string, prefix = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const path = `${prefix}${entry.name}`;
    if (path === DEMO_MARKER) continue;
    if (entry.isDirectory()) found.push(`${path}/`, ...listTree(dir, `${path}/`));
    else found.push(path);
  }
  return found;
}

/** Adds what is now in the demo's folder to its manifest and saves it: everything there is the demo's. */
function recordCreated(dir: string, manifest: DemoManifest, expected: string[] = []): void {
  for (const path of [...expected, ...listTree(dir)]) manifest.created.add(path);
  writeManifest(dir, manifest);
}

/** Whether `path` is a transient sibling (`.wal`, `.waiting`, `.tmp/`) of a listed warehouse file. */
function isTransient(path: string, listed: Set<string>): boolean {
  const isFolder = path.endsWith('/');
  const name = isFolder ? path.slice(0, -1) : path;
  const suffixes = isFolder ? [TRANSIENT_FOLDER] : TRANSIENT_FILES;
  return suffixes.some((suffix) => {
    const base = name.slice(0, -suffix.length);
    return name.endsWith(suffix) && base.endsWith('.duckdb') && listed.has(base);
  });
}

/**
 * Sorts what is in an earlier demo's folder into what the demo listed (or DuckDB's transient files beside
 * a listed warehouse file, with their contents) and what it did not write. No symbolic link is followed:
 * a link is an entry of its own, listed or not.
 */
function sortDemoDir(dir: string, listed: Set<string>): { ours: string[]; foreign: string[] } {
  const ours: string[] = [];
  const foreign: string[] = [];
  const visit = (prefix: string): void => {
    for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
      const path = `${prefix}${entry.name}${entry.isDirectory() ? '/' : ''}`;
      if (path === DEMO_MARKER) continue;
      if (isTransient(path, listed)) {
        ours.push(path, ...(entry.isDirectory() ? listTree(dir, path) : []));
      } else if (!listed.has(path)) foreign.push(path);
      else {
        ours.push(path);
        if (entry.isDirectory()) visit(path);
      }
    }
  };
  visit('');
  return { ours, foreign };
}

/** Removes the demo's own paths: files first, then folders deepest first, each only if empty. */
function removeOwn(dir: string, paths: string[]): void {
  const local = (path: string) => join(dir, ...path.replace(/\/$/, '').split('/'));
  for (const path of paths.filter((p) => !p.endsWith('/'))) rmSync(local(path), { force: true });
  const folders = paths
    .filter((p) => p.endsWith('/'))
    .sort((a, b) => b.split('/').length - a.split('/').length);
  for (const folder of folders) {
    try {
      rmdirSync(local(folder));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY') throw error;
    }
  }
}

/**
 * Makes `dir` the demo's folder and returns its manifest: creates it, or takes an empty one, marking it; in
 * a folder an earlier demo marked, removes what that demo listed (unless `keep`). A folder holding anything
 * the demo did not write is refused with a UsageError (exit 2) before anything is changed.
 */
function prepareDemoDir(dir: string, keep: boolean): DemoManifest {
  const option = `--data-dir ${dir}`;
  const refuseForeign = (paths: string[]) => {
    const shown =
      paths.slice(0, SHOWN_FOREIGN).join(', ') +
      (paths.length > SHOWN_FOREIGN ? `, ... (${paths.length} entries)` : '');
    return new UsageError(
      `${option} already holds files the demo did not make (${shown}). The demo may only remove what it ` +
        `created: move them elsewhere or choose another --data-dir (a new or empty folder, or one an earlier ` +
        `demo made: it lists what it wrote in a ${DEMO_MARKER} file there). Nothing was changed.`,
    );
  };
  const fresh = (): DemoManifest => {
    const manifest = { folder: realpathSync(dir), created: new Set<string>() };
    writeManifest(dir, manifest);
    return manifest;
  };
  let isDirectory: boolean;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR')
      throw new UsageError(`${option}: a part of this path is a file, not a folder; choose another folder`);
    if (code !== 'ENOENT')
      throw new UsageError(`${option}: cannot use this folder (${(error as Error).message})`);
    try {
      // its data folder: closed to other users whatever the umask (src/files/folder-trust.ts)
      makeDirectory(dir, TRUSTED_FOLDER_MODE);
    } catch (cause) {
      const reason =
        (cause as NodeJS.ErrnoException).code === 'ENOTDIR' ||
        (cause as NodeJS.ErrnoException).code === 'EEXIST'
          ? 'a part of this path is a file, not a folder'
          : `cannot create it (${(cause as Error).message})`;
      throw new UsageError(`${option}: ${reason}; choose another folder`);
    }
    return fresh();
  }
  if (!isDirectory) throw new UsageError(`${option} is a file, not a folder; choose a folder for the demo`);
  const cwd = realpathSync(process.cwd());
  const real = realpathSync(dir);
  if (cwd !== real && isWithin(cwd, real))
    throw new UsageError(
      `${option} holds the working folder ${cwd}: the demo writes into a folder of its own, ` +
        'e.g. --data-dir ./data/demo. Nothing was changed.',
    );
  const entries = readdirSync(dir);
  if (entries.length === 0) return fresh();
  if (!entries.includes(DEMO_MARKER)) throw refuseForeign(entries);
  const manifest = readManifest(dir);
  if (manifest === undefined || manifest.folder !== real) {
    const why =
      manifest === undefined
        ? `its ${DEMO_MARKER} file does not list what the demo wrote (an older demo's marker, or not one at all)`
        : `its ${DEMO_MARKER} file was made for another folder (${manifest.folder}): copied or moved here`;
    throw new UsageError(
      `${option}: ${why}, so the demo cannot tell its files from yours. Move out what you want to keep and ` +
        'delete the folder, or choose another --data-dir. Nothing was changed.',
    );
  }
  const { ours, foreign } = sortDemoDir(dir, manifest.created);
  if (foreign.length > 0) throw refuseForeign(foreign);
  if (keep) return manifest;
  removeOwn(dir, ours);
  return fresh();
}

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

export const demoCommand: Command = {
  name: 'demo',
  help: HELP,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      sessions: { type: 'string' },
      'data-dir': { type: 'string' },
      keep: { type: 'boolean' },
    });
    const dataDir = resolve(values['data-dir'] ?? 'data/demo');
    const sessions = intOption(values.sessions, 'sessions', 3000, 100);
    const manifest = prepareDemoDir(dataDir, values.keep ?? false);
    // SIGTERM / Ctrl-C: the step in progress stops (the sync between windows, a report), no further step runs
    const controller = new AbortController();
    let stoppedBy: NodeJS.Signals | undefined;
    const dispose = listenForShutdown({
      onStop(signal) {
        stoppedBy = signal;
        io.err(stoppingMessage('demo', signal, 'the current step'));
        controller.abort(new Error(`stopped by ${signal}`));
      },
      onForce(signal) {
        io.err(`reporter-etl demo: second ${signal}: exiting now`);
        recordCreated(dataDir, manifest);
        process.exit(EXIT.tryLater);
      },
    });
    try {
      return await runDemo(io, dataDir, sessions, manifest, controller.signal, () => stoppedBy);
    } finally {
      dispose();
      recordCreated(dataDir, manifest);
    }
  },
};

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

async function runDemo(
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
