// The reports `reporter-etl report` knows, one folder each under reports/ (its report.ts and .sql files).
// Adding a report is adding a folder and its line here; `report --list` lists them in this order. The command
// and the jobs look a report up here and hand its definition to writeReport (src/report/ never imports this).

import { UsageError } from '../src/errors.js';
import type { ReportDefinition, ReportFormat } from '../src/report/report-definition.js';
import { didYouMean } from '../src/text/suggest-near.js';
import { kbEvalReport } from './kb-eval/report.js';
import { kbHealthReport } from './kb-health/report.js';
import { labelsReport } from './labels/report.js';
import { messagesReport } from './messages/report.js';
import { prompterReport } from './prompter/report.js';
import { sessionsReport } from './sessions/report.js';
import { summaryReport } from './summary/report.js';
import { unhandledReport } from './unhandled/report.js';

export const REPORTS: readonly ReportDefinition[] = [
  summaryReport,
  sessionsReport,
  messagesReport,
  labelsReport,
  prompterReport,
  kbHealthReport,
  kbEvalReport,
  unhandledReport,
];

export function listReports(): { id: string; title: string; description: string }[] {
  return REPORTS.map((r) => ({ id: r.id, title: r.title, description: r.description }));
}

export function findReport(reportId: string): ReportDefinition {
  const report = REPORTS.find((r) => r.id === reportId);
  if (!report)
    throw new UsageError(
      `unknown report "${reportId}"${didYouMean(
        reportId,
        REPORTS.map((r) => r.id),
      )}; the reports are ${REPORTS.map((r) => r.id).join(', ')} (reporter-etl report --list)`,
    );
  return report;
}

/** The ids of the reports that can be written in `format` (every report for xlsx; the summary for html). */
export function reportsWritableAs(format: ReportFormat): string[] {
  return REPORTS.filter((r) => (r.formats ?? ['xlsx']).includes(format)).map((r) => r.id);
}
