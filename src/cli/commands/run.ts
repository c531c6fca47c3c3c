// `reporter-etl run <job>`: one run of a scheduled job, now, through the same runner as the scheduler
// (recorded in etl_runs with trigger=manual). SIGTERM/SIGINT stop it gracefully (exit 0, recorded as failed).

import { findJob, JOBS } from '../../../jobs/registry.js';
import { CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { useConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { JobRunner, type RunOutcome } from '../../schedule/job-runner.js';
import { checkApiConfigured, checkJobSettings } from '../../schedule/resolve-scheduled-jobs.js';
import { listenForShutdown, stoppingMessage } from '../../schedule/shutdown-signals.js';
import { toCleanJson } from '../../text/format-figures.js';
import { didYouMean } from '../../text/suggest-near.js';
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';

const JOB_LINES = JOBS.map(
  (j) => `  ${j.id.padEnd(15)} ${j.description} (scheduled: ${j.defaultSchedule})`,
).join('\n');

const HELP = `reporter-etl run <job> [--json]

Runs one job once, now: the same function the scheduler runs, recorded in the warehouse (etl_runs) with
job=<job> and trigger=manual, so \`reporter-etl runs --job <job>\` shows it next to the scheduled runs.

Jobs:
${JOB_LINES}

Options:
  --json   print the run's outcome as JSON on stdout (status, summary, error, details)

SIGTERM or Ctrl-C stops the run gracefully: the sync finishes or rolls back the window in flight, a platform
report task stays pending for the next run; the run is recorded as failed ("interrupted") and the command
exits 0 within REPORTER_SHUTDOWN_GRACE_SECONDS (${D.REPORTER_SHUTDOWN_GRACE_SECONDS}). A second signal exits at once.

While another process (the scheduler, a sync) holds the warehouse, the run waits REPORTER_LOCK_WAIT_SECONDS
(${D.REPORTER_LOCK_WAIT_SECONDS}), then exits 75 naming the process that holds the file.

Configuration: as for sync (REPORTER_TOKEN for sync and platform-daily), plus REPORTER_TZ (the local day of
daily-report and platform-daily, default ${D.REPORTER_TZ}) and REPORTER_RETENTION_DAYS (retention, default ${D.REPORTER_RETENTION_DAYS}).
See: reporter-etl schedule --help

Exit codes: 0 ok (or stopped by a signal), 1 failed, 2 usage or configuration, 3 partial (records rejected),
75 try again later (API unavailable, warehouse locked, report still pending on the platform).

Example:
  REPORTER_BASE_URL=http://127.0.0.1:4010 REPORTER_TOKEN=emulator-v1-token reporter-etl run sync
`;

function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export const runCommand: Command = {
  name: 'run',
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' } }, 'allow');
    const ids = JOBS.map((j) => j.id).join(', ');
    if (positionals.length !== 1)
      throw new UsageError(
        positionals.length === 0
          ? `name the job to run: ${ids}`
          : `run takes one job, got ${positionals.join(' ')}`,
      );
    const job = findJob(positionals[0]!);
    if (!job)
      throw new UsageError(
        `no job "${positionals[0]}"${didYouMean(
          positionals[0]!,
          JOBS.map((j) => j.id),
        )}: the jobs are ${ids}`,
      );
    const config = loadConfig(process.env, { requireToken: false });
    checkApiConfigured(config, [job]);
    checkJobSettings(config, job);
    const log = createCommandLogger(config);
    const runner = new JobRunner({
      config,
      log,
      useWarehouse: useConfiguredWarehouse(config, 'write', log),
    });

    let stoppedBy: NodeJS.Signals | undefined;
    let giveUp: () => void = () => undefined;
    const givenUp = new Promise<'given up'>((resolve) => {
      giveUp = () => resolve('given up');
    });
    let graceTimer: NodeJS.Timeout | undefined;
    const dispose = listenForShutdown({
      onStop(signal) {
        stoppedBy = signal;
        io.err(stoppingMessage('run', signal, 'the current step'));
        log.warn({ signal, graceMs: config.shutdownGraceMs }, 'stopping: the run ends its current step');
        runner.stop(`stopped by ${signal}`);
        graceTimer = setTimeout(giveUp, config.shutdownGraceMs);
      },
      onForce(signal) {
        log.warn({ signal }, 'second signal: exiting now');
        giveUp();
      },
    });
    let outcome: RunOutcome | 'given up';
    try {
      outcome = await Promise.race([runner.run(job, 'manual'), givenUp]);
    } finally {
      clearTimeout(graceTimer);
      dispose();
    }
    if (outcome === 'given up') {
      log.warn({ job: job.id }, 'the run did not stop in time; its row is closed as failed by the next run');
      return EXIT.ok;
    }
    if (values.json) io.out(toCleanJson(outcome));
    else if (!outcome.ran) io.err(`${job.id}: skipped (${outcome.reason})`);
    else {
      io.out(
        `${outcome.job}: ${outcome.status} (${outcome.trigger}) · ${outcome.summary} · ${formatDuration(outcome.durationMs)}`,
      );
      if (outcome.error && !outcome.summary.includes(outcome.error)) io.err(`  error: ${outcome.error}`);
      if (!outcome.recorded) io.err('  not recorded in etl_runs: the warehouse was not available');
    }
    if (stoppedBy !== undefined) return EXIT.ok;
    return outcome.ran ? outcome.exitCode : EXIT.tryLater;
  },
};
