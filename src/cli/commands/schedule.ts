// `reporter-etl schedule`: the long-running scheduler (node-cron ticks, catch-up at start, one run at a time,
// graceful stop on SIGTERM/SIGINT with exit 0), and `schedule --list` (jobs, schedules, next and last runs).
import { existsSync } from 'node:fs';
import { setLogger } from 'node-cron';
import { JOBS } from '../../../jobs/registry.js';
import { type Config, CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { EXIT } from '../../errors.js';
import type { Logger } from '../../log.js';
import { formatTable } from '../../manage/format-table.js';
import { configuredWarehouse, useConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { listJobs } from '../../schedule/job-list.js';
import { JobRunner } from '../../schedule/job-runner.js';
import { checkApiConfigured, resolveScheduledJobs } from '../../schedule/resolve-scheduled-jobs.js';
import { Scheduler } from '../../schedule/scheduler.js';
import { listenForShutdown, stoppingMessage } from '../../schedule/shutdown-signals.js';
import { requireKeyOffLoopback } from '../../sources/webhooks/require-key-off-loopback.js';
import {
  configuredReceiverOptions,
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../sources/webhooks/webhook-receiver.js';
import { plural } from '../../text/plural.js';
import { openWarehouse } from '../../warehouse/open-warehouse.js';
import { readLastSuccesses } from '../../warehouse/run-history.js';
import { parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';

const JOB_LINES = JOBS.map(
  (j) => `  ${j.id.padEnd(15)} ${j.defaultSchedule.padEnd(13)} ${j.description}`,
).join('\n');

const HELP = `reporter-etl schedule [--no-catch-up] | --list [--json]

Runs the jobs on their cron schedules until it receives SIGTERM or SIGINT. Each run is recorded in the
warehouse (etl_runs) with job=<id> and trigger=schedule: see \`reporter-etl runs --job <id>\`.

Jobs (id, default schedule, what it does):
${JOB_LINES}

  - One run at a time: a job that fires while another runs waits its turn; a job that fires while its own
    previous run is still running (or waiting) is skipped, with a log line.
  - Catch-up: at start, every enabled job whose last successful run is older than one interval of its
    schedule (or that never succeeded) runs once.
  - A failed run is logged and recorded with its error; the scheduler goes on.
  - The warehouse is opened for each run and closed after it, so \`stats\`, \`runs\` or \`run <job>\` work
    between runs (while a run holds it, they wait REPORTER_LOCK_WAIT_SECONDS, then name this process).
  - SIGTERM/SIGINT: no new run starts; the running one finishes or rolls back its current step; the process
    exits 0 within REPORTER_SHUTDOWN_GRACE_SECONDS. A second signal exits at once.

Options:
  --list          print the jobs: enabled, schedule in force and where it came from, next run, last success
  --json          with --list: as JSON
  --no-catch-up   start without the catch-up runs

Configuration (environment, or "schedule" in the REPORTER_CONFIG file; the environment wins):
  REPORTER_TZ                     IANA zone of the schedules and of "yesterday" (default ${D.REPORTER_TZ})
  REPORTER_JOBS                   the jobs to run, e.g. sync,daily-report (default all)
  REPORTER_SCHEDULE_<JOB>         a cron expression replacing a job's schedule, e.g.
                                  REPORTER_SCHEDULE_SYNC='*/5 * * * *', REPORTER_SCHEDULE_DAILY_REPORT='0 6 * * 1-5'
  REPORTER_RETENTION_DAYS         age after which retention deletes files and rejected records (default ${D.REPORTER_RETENTION_DAYS})
  REPORTER_SHUTDOWN_GRACE_SECONDS how long a stop waits for the run in flight (default ${D.REPORTER_SHUTDOWN_GRACE_SECONDS})
  REPORTER_WEBHOOKS_PORT          when set, the webhook receiver runs beside the jobs on this port (see
                                  reporter-etl webhooks --help); a stop loads what it acknowledged
  plus the sync's settings (REPORTER_TOKEN, REPORTER_DATA_DIR, ...: see reporter-etl sync --help).

Exit codes: 0 stopped by a signal, 2 configuration (each message names the setting).

Examples:
  REPORTER_TOKEN=... REPORTER_TZ=Europe/Moscow reporter-etl schedule
  REPORTER_JOBS=sync,retention reporter-etl schedule --list
`;

/** node-cron's own messages go to our JSON log on stderr (its default is the console). */
function routeCronLogs(log: Logger): void {
  setLogger({
    info: (message) => log.debug({ source: 'node-cron' }, message),
    warn: (message) => log.warn({ source: 'node-cron' }, message),
    error: (message, err) => log.error({ source: 'node-cron', err: err?.message }, String(message)),
    debug: (message) => log.debug({ source: 'node-cron' }, String(message)),
  });
}

async function lastSuccessesIfAny(config: Config, log?: Logger): Promise<Map<string, number>> {
  if (!existsSync(config.warehousePath)) return new Map();
  return useConfiguredWarehouse(config, 'read', log)(readLastSuccesses);
}

function printListing(io: CommandIo, config: Config, rows: ReturnType<typeof listJobs>): void {
  for (const line of formatTable(
    rows.map((r) => ({
      ...r,
      enabled: r.needs !== null ? `off: needs ${r.needs}` : r.enabled ? 'yes' : 'no',
      nextRunLocal: r.nextRunLocal ?? '',
      lastSuccess: r.lastSuccess ?? 'never',
    })),
    {
      columns: ['job', 'enabled', 'schedule', 'scheduleFrom', 'nextRunLocal', 'lastSuccess'],
      indent: '',
      maxWidth: 60,
    },
  ))
    io.out(line);
  io.out(`(times of nextRunLocal in ${config.timeZone}; lastSuccess in UTC)`);
}

export const scheduleCommand: Command = {
  name: 'schedule',
  help: HELP,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      list: { type: 'boolean' },
      json: { type: 'boolean' },
      'no-catch-up': { type: 'boolean' },
    });
    const config = loadConfig(process.env, { requireToken: false });
    const scheduled = resolveScheduledJobs(config, JOBS);
    const enabled = scheduled.filter((s) => s.enabled);

    if (values.list) {
      let lastSuccesses = new Map<string, number>();
      let note: string | undefined;
      try {
        lastSuccesses = await lastSuccessesIfAny(config);
      } catch (error) {
        note = `last successes unknown: ${error instanceof Error ? error.message : String(error)}`;
      }
      const rows = listJobs(scheduled, config.timeZone, Date.now(), lastSuccesses);
      if (values.json) io.out(JSON.stringify({ timeZone: config.timeZone, jobs: rows }, null, 2));
      else printListing(io, config, rows);
      if (note) io.err(note);
      return EXIT.ok;
    }

    checkApiConfigured(
      config,
      enabled.map((s) => s.job),
    );
    // the receiver beside the jobs listens beyond this machine only with its key (require-key-off-loopback.ts)
    if (config.webhooks.port !== undefined)
      requireKeyOffLoopback({
        host: config.webhooks.host,
        hostGivenAs: `REPORTER_WEBHOOKS_HOST=${config.webhooks.host}`,
        key: config.webhooks.key,
        insecureNoKey: false,
      });
    const log = createCommandLogger(config, { onTerminal: 'info' });
    routeCronLogs(log);
    const useWarehouse = useConfiguredWarehouse(config, 'write', log);
    const runner = new JobRunner({ config, log, useWarehouse });
    const scheduler = new Scheduler({
      jobs: scheduled,
      runner,
      log,
      timeZone: config.timeZone,
      useWarehouse,
    });

    let forced: () => void = () => undefined;
    const forcedStop = new Promise<'forced'>((resolve) => {
      forced = () => resolve('forced');
    });
    let stopRequested: (signal: NodeJS.Signals) => void = () => undefined;
    const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
      stopRequested = resolve;
    });
    const dispose = listenForShutdown({
      onStop(signal) {
        io.err(stoppingMessage('schedule', signal, 'the run in flight'));
        stopRequested(signal);
      },
      onForce(signal) {
        log.warn({ signal }, 'second signal: exiting now');
        forced();
      },
    });
    // REPORTER_WEBHOOKS_PORT: the webhook receiver runs beside the jobs, with a warehouse of its own (it holds
    // the file only while it loads a batch; a job's open waits for that commit, as another process would)
    const receiverWarehouse =
      config.webhooks.port === undefined
        ? undefined
        : await openWarehouse({ ...configuredWarehouse(config, 'write', log), access: 'write' });
    let receiver: WebhookReceiver | undefined;
    try {
      if (receiverWarehouse && config.webhooks.port !== undefined) {
        receiver = await startWebhookReceiver(
          configuredReceiverOptions(config, receiverWarehouse, log.child({ component: 'webhooks' })),
        );
        io.out(
          `reporter-etl schedule: receiving webhooks on ${receiver.url}/webhooks/chatapi and /webhooks/prompter`,
        );
      }
      io.out(
        `reporter-etl schedule: ${plural(enabled.length, 'job')} in ${config.timeZone} (SIGTERM or Ctrl-C stops it); logs on stderr`,
      );
      const lastSuccesses = await lastSuccessesIfAny(config, log).catch(() => new Map<string, number>());
      printListing(io, config, listJobs(enabled, config.timeZone, Date.now(), lastSuccesses));
      await scheduler.start({ catchUp: values['no-catch-up'] !== true });
      const signal = await stopSignal;
      log.info({ signal, running: runner.running ?? null, graceMs: config.shutdownGraceMs }, 'stopping');
      const result = await Promise.race([scheduler.stop(config.shutdownGraceMs), forcedStop]);
      if (result === 'forced' || !result.clean)
        log.warn(
          { job: runner.running ?? null },
          'the run in flight did not stop in time: exiting anyway (the next run closes its row as failed)',
        );
      else log.info('scheduler stopped');
      if (receiver) {
        await receiver.close();
        log.info({ ...receiver.counts }, 'webhook receiver stopped: everything it acknowledged is loaded');
      }
      return EXIT.ok;
    } finally {
      dispose();
      await receiverWarehouse?.close();
    }
  },
};
