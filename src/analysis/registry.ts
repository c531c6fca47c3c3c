// The registry of analyses: one line per analysis unit (src/analysis/<id>/analysis.ts). The table list
// (src/sources/tables.ts) takes their tables after the sources'. An analysis never imports it.
import { alertsAnalysis } from './alerts/analysis.js';
import type { AnalysisUnit } from './analysis-unit.js';
import { kbEvalAnalysis } from './kb-eval/analysis.js';
import { pathsAnalysis } from './paths/analysis.js';
import { statsAnalysis } from './stats/analysis.js';
import { unhandledAnalysis } from './unhandled/analysis.js';

export const ANALYSES: readonly AnalysisUnit[] = [
  statsAnalysis,
  unhandledAnalysis,
  kbEvalAnalysis,
  alertsAnalysis,
  pathsAnalysis,
];
