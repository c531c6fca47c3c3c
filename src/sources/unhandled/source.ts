// The unhandled questions as a unit: its tables (clusters of the catch-all messages, computed from the
// warehouse by `reporter-etl unhandled`, docs/unhandled.md). It reads nothing from the platform: no settings,
// no run, no job; the command is the CLI's.
import type { SourceUnit } from '../source-unit.js';
import { UNHANDLED_TABLES } from './tables.js';

export const unhandledSource: SourceUnit = {
  id: 'unhandled',
  describe: 'clusters of the unhandled (catch-all) questions, computed from the warehouse into unhandled_*',
  settings: {},
  tables: UNHANDLED_TABLES,
  errorCodes: [],
  jobs: [],
  commands: [],
};
