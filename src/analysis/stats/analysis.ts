// The statistics as a unit: SQL over the warehouse (sql/*.sql), for `stats`, the reports and the alerts, and
// their reconciliation with the platform's own figures (docs/statistics.md). Computed on demand: no table.
import type { AnalysisUnit } from '../analysis-unit.js';

export const statsAnalysis: AnalysisUnit = {
  id: 'stats',
  describe: "the statistics of a period over the warehouse, reconciled with the platform's figures",
  tables: [],
};
