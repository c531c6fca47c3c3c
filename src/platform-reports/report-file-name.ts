// The name a downloaded platform report gets: kind and period, a short hash of the filters when there are
// any, the file type's extension: `messages_2026-10-31.xlsx`, `sessions_2026-10-29_2026-10-31_3f2a9c1e.csv`.
// Invariant: the same kind, period, filters and file type always give the same name (a newer file replaces).
import { createHash } from 'node:crypto';
import type { ReportSpec } from './build-create-request.js';
import { periodStamp } from './resolve-report-period.js';

export function reportFileName(spec: ReportSpec): string {
  const parts: string[] = [spec.kind, periodStamp(spec.period)];
  if (spec.filters.length > 0)
    parts.push(createHash('sha256').update(JSON.stringify(spec.filters)).digest('hex').slice(0, 8));
  return `${parts.join('_')}.${spec.fileType === 'CSV' ? 'csv' : 'xlsx'}`;
}
