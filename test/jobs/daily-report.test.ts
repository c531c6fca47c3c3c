// The daily-report job asks the report writer for the `summary` report of yesterday's local day in REPORTER_TZ,
// into <dataDir>/reports: checked on the request a fake writer receives (bounds worked out by hand).
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDailyReportJob } from '../../jobs/daily-report.js';
import { loadConfig } from '../../src/config.js';
import type { WriteReportRequest } from '../../src/report/write-report.js';
import type { FinishedJobRun } from '../../src/schedule/job-runner.js';
import { createScheduleHarness, type ScheduleHarness } from '../schedule/schedule-harness.js';

let h: ScheduleHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

describe('daily-report job', () => {
  it('writes the summary report of yesterday in the zone, into dataDir/reports, and records the run', async () => {
    // 2026-11-21 04:00Z is 07:00 in Moscow: yesterday is 2026-11-20 MSK = [11-19 21:00Z, 11-20 21:00Z)
    h = createScheduleHarness({ REPORTER_TZ: 'Europe/Moscow' }, Date.parse('2026-11-21T04:00:00Z'));
    const requests: WriteReportRequest[] = [];
    const job = createDailyReportJob(async (req) => {
      requests.push(req);
      return {
        reportId: req.report.id,
        path: join(req.outDir, 'summary_2026-11-20.xlsx'),
        bytes: 12_345,
        durationMs: 10,
        sheets: [
          { name: 'Totals', rows: 1 },
          { name: 'By day', rows: 24 },
        ],
        rows: 25,
        empty: false,
        files: [{ format: 'xlsx', path: join(req.outDir, 'summary_2026-11-20.xlsx'), bytes: 12_345 }],
      };
    });
    const outcome = (await h.runner().run(job, 'schedule')) as FinishedJobRun;
    expect(outcome.status, outcome.error ?? '').toBe('success');
    expect(requests).toHaveLength(1);
    const req = requests[0]!;
    expect({ reportId: req.report.id, from: req.from, to: req.to, tz: req.tz, outDir: req.outDir }).toEqual({
      reportId: 'summary',
      from: Date.parse('2026-11-19T21:00:00Z'),
      to: Date.parse('2026-11-20T21:00:00Z'),
      tz: 'Europe/Moscow',
      outDir: join(h.dir, 'reports'),
    });
    expect(req.projects).toBeUndefined();
    expect(req.formats).toEqual(['xlsx']);
    expect(req.signal?.aborted).toBe(false);
    expect(typeof req.warehouse.query).toBe('function');
    expect(outcome.summary).toContain(join(h.dir, 'reports', 'summary_2026-11-20.xlsx'));
    const [run] = await h.runs('daily-report');
    expect(run).toMatchObject({ runId: outcome.runId, trigger: 'schedule', status: 'success' });
  });

  it('REPORTER_DAILY_REPORT_HTML=true asks for the HTML page beside the XLSX, in one write', async () => {
    h = createScheduleHarness({ REPORTER_DAILY_REPORT_HTML: 'true' }, Date.parse('2026-11-21T07:00:00Z'));
    const requests: WriteReportRequest[] = [];
    const job = createDailyReportJob(async (req) => {
      requests.push(req);
      const file = (format: 'xlsx' | 'html') => ({
        format,
        path: join(req.outDir, `summary_2026-11-20_2026-11-20.${format}`),
        bytes: 100,
      });
      return {
        reportId: req.report.id,
        ...file('xlsx'),
        durationMs: 10,
        sheets: [{ name: 'Summary', rows: 20 }],
        rows: 20,
        empty: false,
        files: [file('xlsx'), file('html')],
      };
    });
    const outcome = (await h.runner().run(job, 'schedule')) as FinishedJobRun;
    expect(outcome.status, outcome.error ?? '').toBe('success');
    expect(requests.map((r) => r.formats)).toEqual([['xlsx', 'html']]);
    expect(outcome.summary).toContain(join(h.dir, 'reports', 'summary_2026-11-20_2026-11-20.html'));
  });

  it('REPORTER_DAILY_REPORT_HTML must be true or false: another value names the setting', () => {
    expect(() => loadConfig({ REPORTER_DAILY_REPORT_HTML: 'sure' }, { requireToken: false })).toThrow(
      /REPORTER_DAILY_REPORT_HTML/,
    );
    expect(loadConfig({ REPORTER_DAILY_REPORT_HTML: 'FALSE' }, { requireToken: false }).dailyReportHtml).toBe(
      false,
    );
  });

  it('a writer that fails makes a failed run with its error', async () => {
    h = createScheduleHarness({}, Date.parse('2026-11-21T07:00:00Z'));
    const job = createDailyReportJob(async () => {
      throw new Error('no such report: summary');
    });
    const outcome = (await h.runner().run(job, 'manual')) as FinishedJobRun;
    expect(outcome).toMatchObject({ status: 'failed', error: 'no such report: summary', exitCode: 1 });
    const [run] = await h.runs('daily-report');
    expect(run).toMatchObject({ trigger: 'manual', status: 'failed', error: 'no such report: summary' });
  });
});
