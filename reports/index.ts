// The reports `reporter-etl report` knows, one folder each under reports/ (its report.ts and .sql files).
// Adding a report is adding a folder and its line here; `report --list` lists them in this order.
import type { ReportDefinition } from '../src/report/report-definition.js';
import { labelsReport } from './labels/report.js';
import { messagesReport } from './messages/report.js';
import { sessionsReport } from './sessions/report.js';
import { summaryReport } from './summary/report.js';

export const REPORTS: readonly ReportDefinition[] = [
  summaryReport,
  sessionsReport,
  messagesReport,
  labelsReport,
];
