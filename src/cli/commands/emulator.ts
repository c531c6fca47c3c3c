// `reporter-etl emulator`: serves the local Reporter API emulator until stopped (Ctrl-C).

import {
  CHATAPI_TOKEN_FORM,
  type ChatApiChannelOptions,
  defaultChatApiToken,
} from '../../emulator/chatapi/channels.js';
import { DEFAULT_READONLY_TOKEN, DEFAULT_V1_TOKEN, defaultLegacyToken } from '../../emulator/emulator.js';
import { DEFAULT_KB_PROJECT_KEY } from '../../emulator/kb/kb-options.js';
import { kbKeys } from '../../emulator/kb/kb-truth.js';
import { DEFAULT_PUSHBACK_ID } from '../../emulator/pushgate/pushgate.js';
import { remoteSettings } from '../../emulator/remote.js';
import { HEADER_LANGUAGES } from '../../emulator/reports/header-names.js';
import {
  COLUMN_ORDERS,
  CSV_MODES,
  isDelimiter,
  type ReportShape,
} from '../../emulator/reports/report-shape.js';
import { startEmulator } from '../../emulator/server.js';
import { UsageError } from '../../errors.js';
import { formatCount } from '../../text/format-figures.js';
import { dateTimeOption, enumOption, intOption, numberOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';

const HELP = `reporter-etl emulator [options]

Serves a faithful local emulator of the platform's Reporter API (both generations, async reports,
long-polled events, faults) and Chat API (channels at /chatapi/{token}; their dialogues are chatapi
sessions of the Reporter), Pushgate and the knowledge base service (at /kb, its own keys) with
deterministic data, until you press Ctrl-C.

Options:
  --port N                   port to listen on (default 4010; 0 picks a free one)
  --host ADDR                address to bind (default 127.0.0.1)
  --sessions N               sessions in the history, over all projects (default 2000)
  --days N                   days of history ending now (default 7)
  --messages-per-session N   average messages per session (default 10)
  --text-length N            every question and answer N characters long (default: as the vocabulary has it)
  --long-text-every K        1 in K messages has long texts (with --long-text-length; default none)
  --long-text-length M       the long texts' length in characters (default 40000)
  --projects a,b             project short names (default shop-bot)
  --seed N                   data seed: same seed, same data (default 42)
  --now ISO                  the clock's start (default: this hour)
  --live                     the clock advances: new sessions arrive, statuses and labels move on
  --speed X                  live mode: simulated seconds per real second (default 1)
  --max-page-size N          the most rows a page has, whatever size is asked (default 500; paging.pageSize
                             says what was used); --page-size-cap N is the older name
  --rate-limit-rps N         answer 429 with Retry-After beyond N API requests per second (a token bucket
                             of N, a one-second burst, shared by all clients; default none); --rate-limit N
                             is the older name
  --latency-ms N             every API answer waits N ms, as from a platform that far away (default 0)
  --duration-unit ms|s       unit of SessionInfo.duration on the wire (default ms)
  --chatapi-token T[@P]      a Chat API channel token (<8 alphanumerics>:<40 hex>, or a UUID) of project P
                             (default the first); repeat for more channels (default: one per project,
                             emuchat1:<40 hex of its name>, printed at start)
  --chatapi-webhook URL      where every channel POSTs its asynchronous answers (default none)
  --prompter-webhook URL     where every channel POSTs its Prompter answer options (default none; e.g.
                             http://127.0.0.1:8790/webhooks/prompter for reporter-etl webhooks)
  --chatapi-events-wait S    the longest a Chat API events call blocks, in seconds (default 30)
  --pushback-share X         share of sessions whose bot stored a Pushgate pushback id in sessionData
                             pushbackId (0..1, default 0)
  --kb-sources N             sources of the knowledge base's generated project (40..200, default 80)
  --kb-query-ms N            real ms a knowledge base generation takes (default 300)
  --report-header H          report files' header names: api (the API's field names, default),
                             display (Question ID, Status, ...) or ru (ID вопроса, Статус, ...)
  --report-csv M             CSV report files: yes (default), refused (a create asking CSV answers
                             400) or ignored (XLSX is written whatever was asked)
  --report-columns O         report files' column order: api (default), reversed or shuffled
  --report-extra-columns     two more columns in every report file: the server's own numeric id
                             (Message ID) and a status that is not a delivery status
  --report-csv-bom           CSV report files start with a UTF-8 byte order mark
  --report-csv-delimiter C   CSV report files separate their fields with C, whatever was asked
  --json                     print the address and tokens as one JSON line

Control endpoints (no auth): GET /__emulator/health, GET /__emulator/truth?from&to&project,
POST /__emulator/clock {advanceMs|set|speed}, POST /__emulator/faults {rules, rates},
GET|POST /__emulator/remote {latencyMs, rateLimitRps (null: none)} (the latency and rate limit, while running),
GET|POST /__emulator/report-shape {header, csv, columnOrder, extraColumns, csvBom, csvDelimiter}
(as the --report-* options, for the report tasks created after),
GET /__emulator/chatapi/truth?token&from&to, POST /__emulator/chatapi/webhook {token, url?, prompterUrl?}.
GET /__emulator/pushgate/received?pushbackId, POST /__emulator/pushgate/pushbacks {pushbackId, project?, delete?},
GET /__emulator/kb/truth?at (the knowledge base's sources, keys, questions; advance the clock to move indexing).

Exit codes: 0 stopped by Ctrl-C or SIGTERM, 2 usage (a bad option, the port is taken).

Examples:
  reporter-etl emulator --sessions 100000 --port 4010
  reporter-etl emulator --latency-ms 60 --rate-limit-rps 120   # a remote platform: 60 ms away, 120 requests/s
  reporter-etl emulator --report-header ru --report-csv refused  # Russian headers, XLSX only
  curl -s -X POST -H 'Authorization: Bearer ${DEFAULT_V1_TOKEN}' -H 'content-type: application/json' \\
    'http://127.0.0.1:4010/api/v1/reporter/sessions/filter?size=2' -d '{"filters":[]}'
  curl -s -H 'Authorization: Bearer ${DEFAULT_KB_PROJECT_KEY}' 'http://127.0.0.1:4010/kb/api/knowledge-hub/sources'
`;

/** The server could not listen: a usage error naming the option to change, else the error as it came. */
function explainListenError(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${host}:${port}`;
  if (code === 'EADDRINUSE')
    return new UsageError(
      `port ${port} is already in use on ${host} (another emulator, or another server?): choose another port with --port N, or --port 0 for a free one`,
      'emulator.port_in_use',
    );
  if (code === 'EACCES')
    return new UsageError(
      `not allowed to listen on ${where} (ports below 1024 need privileges): choose another port with --port N, or --port 0 for a free one`,
      'emulator.port_denied',
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new UsageError(
      `--host ${host}: this machine has no such address to listen on (try --host 127.0.0.1 or --host 0.0.0.0)`,
      'emulator.bad_host',
    );
  return error;
}

/** --pushback-share X: a share from 0 to 1. */
function shareOption(value: string | undefined): number {
  const share = numberOption(value, 'pushback-share', 0);
  if (share < 0 || share > 1) throw new UsageError('--pushback-share: expected a share from 0 to 1');
  return share;
}

/** --max-page-size N, or its older name --page-size-cap N (not both). */
function maxPageSize(values: { 'max-page-size'?: string | undefined; 'page-size-cap'?: string | undefined }) {
  if (values['max-page-size'] !== undefined && values['page-size-cap'] !== undefined)
    throw new UsageError('--max-page-size and --page-size-cap are the same option: give one');
  return values['page-size-cap'] !== undefined
    ? intOption(values['page-size-cap'], 'page-size-cap', 500, 1)
    : intOption(values['max-page-size'], 'max-page-size', 500, 1);
}

/**
 * --rate-limit-rps N, or its older name --rate-limit N (not both): N requests per second (a fraction for
 * slower), bursts of one second's requests (at least 1).
 */
function rateLimit(values: { 'rate-limit-rps'?: string | undefined; 'rate-limit'?: string | undefined }): {
  rateLimit?: { requests: number; perMs: number };
} {
  if (values['rate-limit-rps'] !== undefined && values['rate-limit'] !== undefined)
    throw new UsageError('--rate-limit-rps and --rate-limit are the same option: give one');
  const name = values['rate-limit-rps'] !== undefined ? 'rate-limit-rps' : 'rate-limit';
  const value = values[name];
  if (value === undefined) return {};
  const perSecond = numberOption(value, name, 0);
  if (!(perSecond > 0)) throw new UsageError(`--${name} expects a positive number, got "${value}"`);
  return { rateLimit: { requests: perSecond, perMs: 1000 } };
}

/** --latency-ms N: a whole number of ms, up to a minute. */
const latencyMs = (value: string | undefined): number => intOption(value, 'latency-ms', 0, 0, 60_000);

/** The --report-* options: how report files are written where the seeds are silent (report-shape.ts). */
function reportShape(values: EmulatorValues): { reportShape: Partial<ReportShape> } {
  const delimiter = values['report-csv-delimiter'];
  if (delimiter !== undefined && !isDelimiter(delimiter))
    throw new UsageError(
      `--report-csv-delimiter expects one character (not a quote or a line break), got "${delimiter}"`,
    );
  return {
    reportShape: {
      header: enumOption(values['report-header'], 'report-header', HEADER_LANGUAGES, 'api'),
      csv: enumOption(values['report-csv'], 'report-csv', CSV_MODES, 'yes'),
      columnOrder: enumOption(values['report-columns'], 'report-columns', COLUMN_ORDERS, 'api'),
      extraColumns: values['report-extra-columns'] ?? false,
      csvBom: values['report-csv-bom'] ?? false,
      csvDelimiter: delimiter ?? null,
    },
  };
}

/** --kb-sources N (40..200) and --kb-query-ms N: the knowledge base's world and generation pace. */
function kbOptions(sources: string | undefined, queryMs: string | undefined) {
  const count = intOption(sources, 'kb-sources', 80, 1);
  if (count < 40 || count > 200) throw new UsageError(`--kb-sources expects 40..200 sources, got ${count}`);
  return { sources: count, queryProcessingMs: intOption(queryMs, 'kb-query-ms', 300, 0) };
}

const UUID_FORM = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * --chatapi-token T[@P] (repeated), --chatapi-webhook URL and --prompter-webhook URL: the Chat API channels,
 * or the default ones.
 */
function chatApiChannels(
  tokens: string[] | undefined,
  webhook: string | undefined,
  prompterWebhook: string | undefined,
  projects: string[] | undefined,
): { chatApiChannels?: ChatApiChannelOptions[] } {
  const names = projects && projects.length > 0 ? projects : ['shop-bot'];
  if (webhook !== undefined && !/^https?:\/\/\S+$/.test(webhook))
    throw new UsageError(`--chatapi-webhook expects an http(s) URL, got "${webhook}"`);
  if (prompterWebhook !== undefined && !/^https?:\/\/\S+$/.test(prompterWebhook))
    throw new UsageError(`--prompter-webhook expects an http(s) URL, got "${prompterWebhook}"`);
  const entries =
    tokens && tokens.length > 0
      ? tokens.map((value) => {
          const at = value.lastIndexOf('@');
          const token = at < 0 ? value : value.slice(0, at);
          const project = at < 0 ? names[0]! : value.slice(at + 1);
          if (!CHATAPI_TOKEN_FORM.test(token) && !UUID_FORM.test(token))
            throw new UsageError(
              `--chatapi-token expects <8 alphanumerics>:<40 hex> or a UUID (then @project if not the first), got "${value}"`,
            );
          if (!names.includes(project))
            throw new UsageError(`--chatapi-token ${value}: no project ${project} (see --projects)`);
          return { token, project };
        })
      : tokens === undefined && webhook === undefined && prompterWebhook === undefined
        ? undefined
        : names.map((project) => ({ token: defaultChatApiToken(project), project }));
  if (!entries) return {};
  return {
    chatApiChannels: entries.map((e) => ({
      ...e,
      ...(webhook === undefined ? {} : { webhookUrl: webhook }),
      ...(prompterWebhook === undefined ? {} : { prompterWebhookUrl: prompterWebhook }),
    })),
  };
}

export const emulatorCommand: Command = {
  name: 'emulator',
  help: HELP,
  async run(argv, io) {
    const { values } = parseEmulatorArgs(argv);
    const started = Date.now();
    const running = await startFromOptions(values);
    const summary = describeRunning(running, started);
    if (values.json) io.out(JSON.stringify(summary));
    else printSummary(io, summary);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await running.close();
    return 0;
  },
};

/** The command line parsed against the options of `emulator`. */
function parseEmulatorArgs(argv: string[]) {
  return parseCommandArgs(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    sessions: { type: 'string' },
    days: { type: 'string' },
    'messages-per-session': { type: 'string' },
    'text-length': { type: 'string' },
    'long-text-every': { type: 'string' },
    'long-text-length': { type: 'string' },
    projects: { type: 'string' },
    seed: { type: 'string' },
    now: { type: 'string' },
    live: { type: 'boolean' },
    speed: { type: 'string' },
    'max-page-size': { type: 'string' },
    'page-size-cap': { type: 'string' },
    'rate-limit': { type: 'string' },
    'rate-limit-rps': { type: 'string' },
    'latency-ms': { type: 'string' },
    'duration-unit': { type: 'string' },
    'chatapi-token': { type: 'string', multiple: true },
    'chatapi-webhook': { type: 'string' },
    'prompter-webhook': { type: 'string' },
    'chatapi-events-wait': { type: 'string' },
    'pushback-share': { type: 'string' },
    'kb-sources': { type: 'string' },
    'kb-query-ms': { type: 'string' },
    'report-header': { type: 'string' },
    'report-csv': { type: 'string' },
    'report-columns': { type: 'string' },
    'report-extra-columns': { type: 'boolean' },
    'report-csv-bom': { type: 'boolean' },
    'report-csv-delimiter': { type: 'string' },
    json: { type: 'boolean' },
  });
}

type EmulatorValues = ReturnType<typeof parseEmulatorArgs>['values'];
type RunningEmulator = Awaited<ReturnType<typeof startEmulator>>;

/** Starts the emulator the options describe; a port it cannot listen on is explained. */
async function startFromOptions(values: EmulatorValues): Promise<RunningEmulator> {
  const projects = values.projects
    ?.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const now = dateTimeOption(values.now, 'now');
  const port = intOption(values.port, 'port', 4010);
  const host = values.host ?? '127.0.0.1';
  return await startEmulator({
    port,
    host,
    sessions: intOption(values.sessions, 'sessions', 2000, 1),
    days: numberOption(values.days, 'days', 7),
    messagesPerSession: numberOption(values['messages-per-session'], 'messages-per-session', 10),
    texts: {
      length: intOption(values['text-length'], 'text-length', 0),
      longEvery: intOption(values['long-text-every'], 'long-text-every', 0),
      longLength: intOption(values['long-text-length'], 'long-text-length', 40_000),
    },
    seed: intOption(values.seed, 'seed', 42),
    live: values.live ?? false,
    speed: numberOption(values.speed, 'speed', 1),
    maxPageSize: maxPageSize(values),
    ...rateLimit(values),
    latencyMs: latencyMs(values['latency-ms']),
    durationUnit: enumOption(values['duration-unit'], 'duration-unit', ['ms', 's'] as const, 'ms'),
    ...chatApiChannels(
      values['chatapi-token'],
      values['chatapi-webhook'],
      values['prompter-webhook'],
      projects,
    ),
    chatApiEventsWaitMs: numberOption(values['chatapi-events-wait'], 'chatapi-events-wait', 30) * 1000,
    pushbackShare: shareOption(values['pushback-share']),
    kb: kbOptions(values['kb-sources'], values['kb-query-ms']),
    ...reportShape(values),
    ...(projects && projects.length > 0 ? { projects } : {}),
    ...(now === undefined ? {} : { now }),
  }).catch((error: unknown) => {
    throw explainListenError(error, port, host);
  });
}

/** What a client needs to talk to the running emulator: its URLs, tokens, keys, projects and clock. */
function describeRunning(running: RunningEmulator, started: number) {
  const e = running.emulator;
  return {
    url: running.url,
    v1Token: DEFAULT_V1_TOKEN,
    readOnlyToken: DEFAULT_READONLY_TOKEN,
    legacyTokens: Object.fromEntries(e.options.projects.map((p) => [p, defaultLegacyToken(p)])),
    chatApiChannels: [...e.chatApi.channels.values()].map((c) => ({
      token: c.token,
      project: c.project.name,
      url: `${running.url}/chatapi/${c.token}`,
      webhookUrl: c.webhookUrl ?? null,
      prompterWebhookUrl: c.prompterWebhookUrl ?? null,
    })),
    pushgateUrl: `${running.url}/pushgate/push_${DEFAULT_PUSHBACK_ID}`,
    kb: {
      baseUrl: running.kbUrl,
      projectId: kbKeys(e).projectId,
      projectKey: kbKeys(e).projectKey,
      adminKey: kbKeys(e).adminKey,
    },
    projects: [...e.projects.values()].map((p) => ({
      name: p.name,
      sessions: p.skeleton.sessionCount,
      messages: p.skeleton.messageCount,
    })),
    now: new Date(e.now()).toISOString(),
    live: e.clock.live,
    maxPageSize: e.options.maxPageSize,
    rateLimitPerSecond: remoteSettings(e).rateLimitRps,
    latencyMs: e.latencyMs,
    reportShape: e.reportShape,
    startedInMs: Date.now() - started,
  };
}

/** The summary for a person, then how to stop. */
function printSummary(io: CommandIo, summary: ReturnType<typeof describeRunning>): void {
  io.out(`Reporter API emulator listening on ${summary.url} (ready in ${summary.startedInMs} ms)`);
  for (const p of summary.projects)
    io.out(`  project ${p.name}: ${formatCount(p.sessions)} sessions, ${formatCount(p.messages)} messages`);
  io.out(`  clock: ${summary.now}${summary.live ? ' (live)' : ' (fixed)'}`);
  io.out(
    `  pages: at most ${summary.maxPageSize} rows; rate limit: ${summary.rateLimitPerSecond === null ? 'none' : `${summary.rateLimitPerSecond} requests/s (429 with Retry-After beyond)`}; latency: ${summary.latencyMs} ms`,
  );
  const shape = summary.reportShape;
  io.out(
    `  report files: header ${shape.header}, CSV ${shape.csv}, columns ${shape.columnOrder}${shape.extraColumns ? ' + extra' : ''}`,
  );
  io.out(`  v1 token:     Authorization: Bearer ${summary.v1Token}   (read-only: ${summary.readOnlyToken})`);
  for (const [p, t] of Object.entries(summary.legacyTokens))
    io.out(`  legacy token: ${summary.url}/api/reporter/p/${t}/...   (${p})`);
  for (const c of summary.chatApiChannels)
    io.out(
      `  Chat API:     ${c.url}   (${c.project}; webhook ${c.webhookUrl ?? 'none'}; Prompter webhook ${c.prompterWebhookUrl ?? 'none'})`,
    );
  io.out(`  Pushgate:     ${summary.pushgateUrl}   (the ops pushback: REPORTER_PUSHGATE_URL)`);
  io.out(
    `  knowledge base: ${summary.kb.baseUrl}   (operations under /api/knowledge-hub; project ${summary.kb.projectId})`,
  );
  io.out(
    `  KB keys:      project Authorization: Bearer ${summary.kb.projectKey}   (administrative: ${summary.kb.adminKey})`,
  );
  io.out('Press Ctrl-C to stop.');
}
