// Job `platform-daily`: the platform's own `messages` report for yesterday (the local day in REPORTER_TZ)
// for every configured project, through the platform-report code: an open task asking for the same report is
// finished rather than created again, and tasks a stopped run left pending are resumed first.
import { join } from 'node:path';
import { EXIT, UsageError } from '../src/errors.js';
import { assertTrustedInDataDir } from '../src/files/trusted-folder.js';
import type { TaskOutcome } from '../src/platform-reports/finish-task.js';
import type { PlatformReportResult } from '../src/platform-reports/resume-platform-reports.js';
import type { Job, JobResult } from '../src/schedule/job.js';
import { yesterdayIn } from '../src/schedule/local-day.js';
import { plural } from '../src/text/plural.js';

/** How long one run waits for the platform before leaving the task pending for the next run. */
const DEADLINE_MS = 15 * 60_000;

function describeOutcome(o: TaskOutcome): string {
  return o.status === 'completed'
    ? `${o.kind} ${o.period}: ${o.rows === null ? 'rows unknown' : plural(o.rows, 'row')} · ${o.filePath}`
    : `${o.kind} ${o.period}: ${o.status}${o.error ? ` (${o.error})` : ''}`;
}

export const platformDailyJob: Job = {
  id: 'platform-daily',
  description:
    "the platform's messages report for yesterday (local day in REPORTER_TZ) into REPORTER_DATA_DIR/platform-reports",
  defaultSchedule: '30 7 * * *',
  needsApi: true,
  async run(ctx): Promise<JobResult> {
    const { config } = ctx;
    if (config.projects.length === 0)
      throw new UsageError('REPORTER_TOKEN: is required by the platform-daily job (or REPORTER_CONFIG)');
    const day = yesterdayIn(config.timeZone, ctx.now());
    assertTrustedInDataDir(config.dataDir, join(config.dataDir, 'platform-reports'));
    // the platform's client and the report readers (undici, csv-parse, exceljs) load when the job runs
    const { runPlatformReport } = await import('../src/platform-reports/run-platform-report.js');
    const results: PlatformReportResult[] = [];
    for (const project of config.projects) {
      if (ctx.signal.aborted) break;
      results.push(
        await runPlatformReport(
          {
            config,
            project,
            log: ctx.log,
            withWarehouse: ctx.useWarehouse,
            now: ctx.now,
            signal: ctx.signal,
          },
          { kind: 'messages', period: { from: day.from, to: day.to }, filters: [], fileType: 'XLSX' },
          {
            deadlineMs: DEADLINE_MS,
            pollSeconds: Math.max(0, Math.min(25, Math.floor(config.timeoutMs / 1000) - 5)),
            outDir: join(config.dataDir, 'platform-reports'),
          },
        ),
      );
    }
    const worst =
      results.find((r) => r.exitCode === EXIT.failed) ?? results.find((r) => r.exitCode !== EXIT.ok);
    const stopped = results.length < config.projects.length;
    const lines = results.map(
      (r) => `${r.project}: ${r.outcomes.map(describeOutcome).join(', ') || 'nothing to do'}`,
    );
    const failed = worst !== undefined || stopped;
    return {
      status: failed ? 'failed' : 'success',
      summary: `messages ${day.date} (${config.timeZone}): ${lines.join('; ')}${stopped ? '; stopped by a signal' : ''}`,
      ...(failed
        ? {
            error:
              worst?.outcomes.find((o) => o.error)?.error ??
              (worst?.exitCode === EXIT.tryLater
                ? 'the report task is still pending on the platform: the next run finishes it'
                : 'stopped by a signal before every project had its report'),
          }
        : {}),
      exitCode: worst?.exitCode ?? (stopped ? EXIT.tryLater : EXIT.ok),
      details: { day: day.date, results },
    };
  },
};
