// PLACEHOLDER until the reports branch is merged: the XLSX report writer's contract (types exactly as agreed),
// so the daily-report job compiles and its tests can inject a fake writer. The lead replaces this file with the
// real implementation at merge (an add/add conflict here is expected: take the reports branch's version).
import type { Logger } from '../log.js';
import type { Warehouse } from '../warehouse/warehouse.js';

export interface WriteReportRequest {
  warehouse: Warehouse;
  reportId: string;
  from: number;
  to: number; // epoch ms [from, to)
  projects?: readonly string[];
  tz: string;
  outDir: string; // outDir default <dataDir>/reports
  log?: Logger;
  onProgress?: (p: { sheet: string; rows: number }) => void;
  signal?: AbortSignal;
}

export interface WriteReportResult {
  reportId: string;
  path: string;
  bytes: number;
  durationMs: number;
  sheets: { name: string; rows: number }[];
}

export function writeReport(_req: WriteReportRequest): Promise<WriteReportResult> {
  throw new Error('writeReport: not merged yet');
}
