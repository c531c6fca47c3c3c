// The analysis contract: what reads the warehouse and computes (the statistics, the unhandled questions, the
// knowledge base's evaluation, the alerts), as one unit: its id, one line on what it computes, and the tables
// it writes (its migration creates them). src/analysis/registry.ts lists the units; the table registry
// (src/sources/tables.ts) takes their tables after the sources'; the log's secret list their settings.
// Imports only the warehouse's table shape and the settings' shape.
import type { SettingSpecs } from '../settings/define-settings.js';
import type { TableSpec } from '../warehouse/table-spec.js';

export interface AnalysisUnit {
  /** Lower-case words joined by dashes, its folder's name: `stats`, `unhandled`, `kb-eval`, `alerts`. */
  readonly id: string;
  /** One line: what it computes from the warehouse, and for what. */
  readonly describe: string;
  /** Every warehouse table it writes; none for an analysis that only reads. */
  readonly tables: readonly TableSpec[];
  /** The environment settings it owns (defineSettings), the secret ones marked; none by default. */
  readonly settings?: SettingSpecs;
}
