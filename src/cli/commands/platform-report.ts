// `reporter-etl platform-report`: the platform's own report tasks (create, long-poll, download, verify,
// resume, reconcile), `platform-report list` and `platform-report delete`. Output: text on stdout (progress
// on stderr when it is a TTY) or JSON with --json; the warehouse is opened only for each bookkeeping write.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Config, loadConfig, type ProjectConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { assertTrustedInDataDir } from '../../files/trusted-folder.js';
import { useConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { deletePlatformReports } from '../../platform-reports/delete-platform-reports.js';
import type { TaskOutcome } from '../../platform-reports/finish-task.js';
import { listPlatformReports } from '../../platform-reports/list-platform-reports.js';
import { FILTER_KEYS_HELP, parseReportFilter } from '../../platform-reports/parse-report-filter.js';
import type { ReconcileResult } from '../../platform-reports/reconcile-report.js';
import { isPlatformReportKind, PLATFORM_REPORT_KINDS } from '../../platform-reports/report-kinds.js';
import type { PlatformReportContext, TaskProgress } from '../../platform-reports/report-session.js';
import { resolveReportPeriod } from '../../platform-reports/resolve-report-period.js';
import {
  type PlatformReportResult,
  resumePlatformReports,
  type SkippedTask,
} from '../../platform-reports/resume-platform-reports.js';
import { runPlatformReport } from '../../platform-reports/run-platform-report.js';
import { displayWidth, padToWidth } from '../../text/display-width.js';
import { escapeForTerminal } from '../../text/escape-terminal-text.js';
import { plural } from '../../text/plural.js';
import { clearStatusLine, showStatusLine } from '../../text/status-line.js';
import { didYouMean } from '../../text/suggest-near.js';
import { commandTimeZone, tzHelp } from '../../time/command-time-zone.js';
import { expandPeriod, PERIOD_OPTIONS, relativePeriodHelp } from '../../time/relative-period.js';
import { LEASE } from '../../warehouse/lease.js';
import { enumOption, intOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';

const HELP = `reporter-etl platform-report <kind> [--from ISO --to ISO | --date YYYY-MM-DD] [--tz ZONE] [--format xlsx|csv]
                               [--filter F]... [--out DIR] [--reconcile] [--deadline SECONDS] [--json]
reporter-etl platform-report --resume [--deadline SECONDS] [--json]
reporter-etl platform-report list [--json]
reporter-etl platform-report delete <taskId> | --completed | --all

Asks the platform to build one of its own reports, waits for it, downloads the file and checks that it
opens. Kinds: ${PLATFORM_REPORT_KINDS.join(', ')} (message-reaction: v1 API only).
v1: the task is created under /api/v1/async and followed by long-polling /api/v1/async/events; legacy: the
task is answered at once and polled (reports/tasks/{taskId}). Every task is recorded in the warehouse table
platform_report_tasks before anything is waited for: a run that stops (Ctrl-C, kill, deadline) leaves it
pending, and the next run (or --resume) finishes it without creating it again.

Period (half-open [from, to); local dates and times in --tz):
  --from ISO [--to ISO]   e.g. --from 2026-10-30 --to 2026-11-01 (--to defaults to now)
  --date YYYY-MM-DD       one local day (daily reports need it)
  (neither)               yesterday, the last whole local day
${relativePeriodHelp(26)}
${tzHelp('the dates and times above', 24)}
  sessions: SESSION_START_TIME; messages: MESSAGE_TIME; clients and client-list: CLIENT_LAST_ACTIVITY_TIME;
  telephony: startTime/endTime; message-reaction: messageTimeFrom/messageTimeTo.

Options:
  --format xlsx|csv       file type (default xlsx; telephony reports are always XLSX)
  --filter F              repeatable: KEY=a,b (checkbox contains, text equals, radio option, MESSAGE_COUNT=2..10),
                          KEY!=a,b (not contains), KEY~text (text contains) or a JSON filter object.
                          Keys: ${FILTER_KEYS_HELP}.
                          telephony: BOT_ID=...; message-reaction: BOT_ID= (required), SESSION_ID=, CLIENT_ID=, MESSAGE_ID=
  --out DIR               where files go (default REPORTER_DATA_DIR/platform-reports); names say kind and period:
                          messages_2026-10-31.xlsx, sessions_2026-10-29_2026-10-31_<filters hash>.csv
  --reconcile             messages, daily and sessions: compare the file's ids (first column) with the warehouse
                          for the same period and filters (CHANNEL_TYPE, BOT_ID, SESSION_RESULT, NLP_CLASS)
  --deadline SECONDS      overall wait of the run (default 900); tasks still running stay pending (exit 75)
  --poll-timeout SECONDS  how long one long poll of async events may block, 0..30 (default 25, and at most
                          REPORTER_TIMEOUT_MS minus 5 s)
  --resume                only finish the pending tasks of earlier runs
  --project NAME          the configured project to use (when REPORTER_CONFIG lists several)
  --json                  print the result as JSON on stdout

list: the tasks on the platform and the records of platform_report_tasks. delete: deletes one task, the
completed ones (--completed) or all (--all) on the platform; downloaded files stay.

Configuration: REPORTER_TOKEN, REPORTER_BASE_URL, REPORTER_API (v1 | legacy), REPORTER_PROJECT,
REPORTER_DATA_DIR (./data), REPORTER_TIMEOUT_MS, REPORTER_RETRIES, REPORTER_LOCK_WAIT_SECONDS (see sync --help).

Exit codes: 0 ok, 1 failed (a task FAILED on the platform, a file that does not open, a refused token),
2 usage or configuration, 3 --reconcile found differences, 75 try again later (deadline passed with tasks
still pending, --resume left a task to the process holding it, the API unavailable, the warehouse locked).

Examples (against the emulator):
  REPORTER_BASE_URL=http://127.0.0.1:4010 REPORTER_TOKEN=emulator-v1-token \\
    reporter-etl platform-report messages --date 2026-10-31 --format csv --reconcile
  reporter-etl platform-report sessions --from 2026-10-30 --to 2026-11-01 --filter CHANNEL_TYPE=telegram,vk
  reporter-etl platform-report --resume
`;

const DEFAULT_DEADLINE_SECONDS = 900;

function pickProject(config: Config, name: string | undefined): ProjectConfig {
  const projects = name === undefined ? config.projects : config.projects.filter((p) => p.project === name);
  if (projects.length === 0)
    throw new UsageError(
      `--project ${name}: no configured project has this name (REPORTER_PROJECT or REPORTER_CONFIG)`,
    );
  if (projects.length > 1)
    throw new UsageError(
      `REPORTER_CONFIG lists ${projects.length} projects: choose one with --project NAME (${projects.map((p) => p.project ?? '(default)').join(', ')})`,
    );
  return projects[0]!;
}

function progressLine(p: TaskProgress): string {
  const head = `${p.kind} ${p.period}: `;
  if (p.phase === 'downloading') return `${head}downloading the file of task ${p.taskId}`;
  if (p.phase === 'done') return `${head}done`;
  const rows =
    p.totalCount !== null && p.totalCount > 0
      ? ` ${p.writeCount ?? 0}/${p.totalCount} rows (${Math.floor(((p.writeCount ?? 0) / p.totalCount) * 100)}%)`
      : '';
  return `${head}${p.status}${rows}`;
}

function describeOutcome(o: TaskOutcome): string {
  const task = o.taskId ? ` · task ${o.taskId}` : o.requestId ? ` · request ${o.requestId}` : '';
  switch (o.status) {
    case 'completed':
      return `${o.kind} ${o.period}: completed${task} · ${o.rows === null ? 'rows unknown' : plural(o.rows, 'row')} · ${o.filePath}`;
    case 'expired':
      return `${o.kind} ${o.period}: expired${task} · ${o.error}`;
    default:
      return `${o.kind} ${o.period}: ${o.status}${task}${o.error ? ` · ${o.error}` : ''}`;
  }
}

function printReconcile(io: CommandIo, r: ReconcileResult): void {
  const head = `reconcile ${r.target} ${r.period}: file ${plural(r.fileRows, 'row')} (${plural(r.fileIds, 'distinct id')}) · warehouse ${plural(r.warehouseIds, 'id')} · missing in the warehouse ${r.missingInWarehouseCount.toLocaleString('en-US')} · missing in the file ${r.missingInFileCount.toLocaleString('en-US')}`;
  io.out(r.agree ? `${head} · they agree` : head);
  const show = (label: string, ids: string[], count: number) => {
    if (count === 0) return;
    const listed = ids.slice(0, 20).join(', ');
    io.out(
      `  ${label} (${count}): ${listed}${count > 20 ? `, … (${count - 20} more; --json lists up to 1000)` : ''}`,
    );
  };
  show('in the file, missing in the warehouse', r.missingInWarehouse, r.missingInWarehouseCount);
  show('in the warehouse, missing in the file', r.missingInFile, r.missingInFileCount);
  show('duplicated in the file', r.duplicatesInFile, r.duplicatesInFile.length);
  for (const note of r.notes) io.out(`  note: ${note}`);
}

/**
 * A task left to another process: one seen running on this host waits for it now; of another host, only its
 * fresh heartbeat is known (it is taken over once LEASE.staleMs pass without one).
 */
function describeSkipped(s: SkippedTask): string {
  const beat = s.heartbeatAt === null ? '?' : new Date(s.heartbeatAt).toISOString();
  const task = `${s.kind} ${s.period}: task ${s.id} left to process ${s.ownerPid ?? '?'}`;
  if (s.ownerState === 'alive')
    return `${task} on this host, which is waiting for it now (heartbeat at ${beat})`;
  return (
    `${task} on ${s.ownerHost ?? '?'}, which holds its lease (last heartbeat at ${beat}); it is taken over ` +
    `once ${Math.round(LEASE.staleMs / 1000)} s pass without a heartbeat`
  );
}

function printResult(io: CommandIo, result: PlatformReportResult, json: boolean): void {
  if (json) {
    io.out(JSON.stringify(result, null, 2));
    return;
  }
  if (result.outcomes.length === 0 && result.skipped.length === 0)
    io.out(`${result.project}: no pending report tasks`);
  for (const o of result.outcomes) {
    if (o.status === 'completed' || o.status === 'expired') io.out(describeOutcome(o));
    else io.err(describeOutcome(o));
  }
  for (const s of result.skipped) io.err(describeSkipped(s));
  if (result.reconcile) printReconcile(io, result.reconcile);
}

function pad(cells: string[][]): string[] {
  const rows = cells.map((r) => r.map((cell) => escapeForTerminal(cell)));
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => displayWidth(r[c] ?? ''))));
  return rows.map((r) =>
    r
      .map((cell, c) => padToWidth(cell, widths[c]!))
      .join('  ')
      .trimEnd(),
  );
}

export const platformReportCommand: Command = {
  name: 'platform-report',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parsePlatformReportArgs(argv);
    const [first, ...rest] = positionals;
    const json = values.json === true;
    const action = checkAction(values, first, rest);

    const deadlineSeconds = intOption(values.deadline, 'deadline', DEFAULT_DEADLINE_SECONDS, 0);
    const pollOption = intOption(values['poll-timeout'], 'poll-timeout', 25, 0);
    if (pollOption > 30) throw new UsageError(`--poll-timeout is at most 30 seconds, got ${pollOption}`);
    const config = loadConfig();
    const project = pickProject(config, values.project);
    const now = Date.now();
    const timeZone = commandTimeZone(values.tz, config.timeZone);
    const spec = action === 'report' ? reportSpec(values, first!, now, timeZone) : undefined;
    const log = createCommandLogger(config);
    const showProgress = io.isTty && !json;
    const ctx: PlatformReportContext = {
      config,
      project,
      log,
      // list only reads (READ_ONLY, beside a running sync) once a warehouse exists; the rest record tasks
      withWarehouse: useConfiguredWarehouse(
        config,
        action === 'list' && existsSync(config.warehousePath) ? 'read' : 'write',
        log,
      ),
      ...(showProgress
        ? {
            onProgress: (p: TaskProgress) => showStatusLine(escapeForTerminal(progressLine(p))),
          }
        : {}),
    };
    const runOptions = {
      deadlineMs: deadlineSeconds * 1000,
      pollSeconds: Math.max(0, Math.min(pollOption, Math.floor(config.timeoutMs / 1000) - 5)),
      outDir: resolve(values.out ?? `${config.dataDir}/platform-reports`),
    };
    assertTrustedInDataDir(config.dataDir, runOptions.outDir);
    const clearProgress = () => {
      clearStatusLine();
    };

    if (action === 'list') {
      printList(io, await listPlatformReports(ctx), json);
      return EXIT.ok;
    }
    if (action === 'delete') {
      const target = values.all ? 'all' : values.completed ? 'completed' : { taskId: rest[0]! };
      const result = await deletePlatformReports(ctx, target);
      if (json) io.out(JSON.stringify(result, null, 2));
      else
        io.out(
          `${result.project}: deleted ${plural(result.deleted.length, 'task')} on the platform${result.deleted.length > 0 ? `: ${result.deleted.join(', ')}` : ''}`,
        );
      return EXIT.ok;
    }
    let result: PlatformReportResult;
    try {
      result =
        action === 'resume'
          ? await resumePlatformReports(ctx, runOptions)
          : await runPlatformReport(ctx, spec!, { ...runOptions, reconcile: values.reconcile === true });
    } finally {
      clearProgress();
    }
    printResult(io, result, json);
    return result.exitCode;
  },
};

/** The command line parsed against the options of every action (checkAction says which belong to which). */
function parsePlatformReportArgs(argv: string[]) {
  return parseCommandArgs(
    argv,
    {
      ...PERIOD_OPTIONS,
      date: { type: 'string' },
      tz: { type: 'string' },
      format: { type: 'string' },
      filter: { type: 'string', multiple: true },
      out: { type: 'string' },
      reconcile: { type: 'boolean' },
      deadline: { type: 'string' },
      'poll-timeout': { type: 'string' },
      resume: { type: 'boolean' },
      project: { type: 'string' },
      json: { type: 'boolean' },
      completed: { type: 'boolean' },
      all: { type: 'boolean' },
    },
    'allow',
  );
}

type PlatformReportValues = ReturnType<typeof parsePlatformReportArgs>['values'];
type PlatformReportAction = 'report' | 'resume' | 'list' | 'delete';

/** The action the arguments ask for (a report kind, --resume, list or delete), each option checked to belong to it. */
function checkAction(
  values: PlatformReportValues,
  first: string | undefined,
  rest: readonly string[],
): PlatformReportAction {
  const action = values.resume ? 'resume' : first === 'list' || first === 'delete' ? first : 'report';
  if (action === 'resume' && first !== undefined)
    throw new UsageError('--resume finishes the pending tasks of earlier runs: use it without a kind');
  if (action === 'report') {
    if (first === undefined)
      throw new UsageError(
        `name a report kind (${PLATFORM_REPORT_KINDS.join(', ')}), or list, delete, --resume; see: reporter-etl platform-report --help`,
      );
    if (!isPlatformReportKind(first))
      throw new UsageError(
        `unknown report kind "${first}"${didYouMean(first, PLATFORM_REPORT_KINDS)}: expected one of ${PLATFORM_REPORT_KINDS.join(', ')}`,
      );
  }
  if (action !== 'delete' && (values.completed || values.all))
    throw new UsageError('--completed and --all belong to `platform-report delete`');
  if (action !== 'report') {
    for (const option of [
      'from',
      'to',
      'last',
      'week',
      'month',
      'date',
      'tz',
      'format',
      'filter',
      'reconcile',
    ] as const)
      if (values[option] !== undefined)
        throw new UsageError(`--${option} belongs to a report request (platform-report <kind> ...)`);
  }
  const expectedPositionals = action === 'delete' ? (values.completed || values.all ? 0 : 1) : 0;
  if (rest.length !== expectedPositionals)
    throw new UsageError(
      action === 'delete'
        ? 'platform-report delete takes one task id, or --completed, or --all'
        : `unexpected argument "${rest[0]}"`,
    );
  if (action === 'delete' && values.completed && values.all)
    throw new UsageError('platform-report delete: choose --completed or --all');
  return action;
}

/** The report a `platform-report <kind>` asks for: its period, filters and file type. */
function reportSpec(values: PlatformReportValues, kind: string, now: number, timeZone: string) {
  return {
    kind: kind as (typeof PLATFORM_REPORT_KINDS)[number],
    period: resolveReportPeriod({ ...expandPeriod(values, timeZone, now), date: values.date }, now, timeZone),
    filters: (values.filter ?? []).map(parseReportFilter),
    fileType:
      enumOption(values.format?.toLowerCase(), 'format', ['xlsx', 'csv'] as const, 'xlsx') === 'csv'
        ? ('CSV' as const)
        : ('XLSX' as const),
  };
}

/** `platform-report list`: the platform's tasks and the table's records, as two aligned tables (or JSON). */
function printList(
  io: CommandIo,
  list: Awaited<ReturnType<typeof listPlatformReports>>,
  json: boolean,
): void {
  if (json) {
    io.out(JSON.stringify(list, null, 2));
    return;
  }
  io.out(`${list.project}: ${plural(list.platform.length, 'task')} on the platform`);
  if (list.platform.length > 0)
    for (const line of pad([
      ['taskId', 'type', 'status', 'progress', 'created', 'file', 'record'],
      ...list.platform.map((t) => [
        t.taskId,
        t.reportType ?? '',
        t.status,
        t.totalCount === null ? '' : `${t.writeCount ?? 0}/${t.totalCount}`,
        t.creationTime ?? '',
        t.fileName ?? '',
        t.recordId ? t.recordId.slice(0, 8) : '',
      ]),
    ]))
      io.out(`  ${line}`);
  io.out(`${list.project}: ${plural(list.table.length, 'record')} in platform_report_tasks`);
  if (list.table.length > 0)
    for (const line of pad([
      ['record', 'kind', 'period', 'status', 'platform', 'taskId', 'progress', 'file', 'error'],
      ...list.table.map((r) => [
        r.id.slice(0, 8),
        r.kind,
        `${new Date(r.periodFrom).toISOString().slice(0, 16)}..${new Date(r.periodTo).toISOString().slice(0, 16)}`,
        r.status,
        r.platformStatus ?? '',
        r.taskId ?? (r.requestId ? `(request ${r.requestId})` : ''),
        r.totalCount === null ? '' : `${r.writeCount ?? 0}/${r.totalCount}`,
        r.status === 'completed' ? (r.filePath ?? '') : '',
        r.error ?? '',
      ]),
    ]))
      io.out(`  ${line}`);
}
