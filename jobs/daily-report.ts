// Job `daily-report`: the `summary` XLSX report for yesterday (the local day in REPORTER_TZ), written to
// <REPORTER_DATA_DIR>/reports at 07:00; with REPORTER_DAILY_REPORT_HTML=true also its HTML page beside it
// (built once: both files show the same figures). The writer is a parameter (the real one by default) so tests can see
// exactly what the job asks for without writing a workbook.
import { join } from 'node:path';
import { findReport } from '../reports/index.js';
import { EXIT } from '../src/errors.js';
import { assertTrustedInDataDir } from '../src/files/trusted-folder.js';
import type { writeReport } from '../src/report/write-report.js';
import type { Job, JobResult } from '../src/schedule/job.js';
import { yesterdayIn } from '../src/schedule/local-day.js';
import { formatSize, plural } from '../src/text/plural.js';

export const DAILY_REPORT_ID = 'summary';

/** The job; tests pass their own `write`, else write-report (exceljs, the charts) is loaded when it runs. */
export function createDailyReportJob(given?: typeof writeReport): Job {
  return {
    id: 'daily-report',
    description: `the "${DAILY_REPORT_ID}" XLSX report for yesterday (local day in REPORTER_TZ) into REPORTER_DATA_DIR/reports (and its HTML page with REPORTER_DAILY_REPORT_HTML=true)`,
    defaultSchedule: '0 7 * * *',
    needsApi: false,
    async run(ctx): Promise<JobResult> {
      const { config } = ctx;
      const day = yesterdayIn(config.timeZone, ctx.now());
      assertTrustedInDataDir(config.dataDir, join(config.dataDir, 'reports'));
      const write = given ?? (await import('../src/report/write-report.js')).writeReport;
      const result = await ctx.useWarehouse((warehouse) =>
        write({
          warehouse,
          report: findReport(DAILY_REPORT_ID),
          from: day.from,
          to: day.to,
          tz: config.timeZone,
          outDir: join(config.dataDir, 'reports'),
          formats: config.dailyReportHtml ? ['xlsx', 'html'] : ['xlsx'],
          log: ctx.log,
          signal: ctx.signal,
        }),
      );
      const rows = result.sheets.reduce((sum, s) => sum + s.rows, 0);
      const html = result.files.find((f) => f.format === 'html');
      return {
        status: 'success',
        summary: `${DAILY_REPORT_ID} ${day.date} (${config.timeZone}): ${result.path} · ${plural(result.sheets.length, 'sheet')} · ${plural(rows, 'row')} · ${formatSize(result.bytes)}${html ? ` · ${html.path}` : ''}`,
        exitCode: EXIT.ok,
        details: { day: day.date, ...result },
        reportPath: result.path,
      };
    },
  };
}

export const dailyReportJob: Job = createDailyReportJob();
