// Dialog paths as a unit: where the sessions go through the bot's states, where they stop, hand over to an agent
// or get a catch-all answer, and how that compares with the platform's own routes (docs/paths.md). Computed
// on demand from the raw messages (SQL in sql/*.sql): it writes no table.
import type { AnalysisUnit } from '../analysis-unit.js';

export const pathsAnalysis: AnalysisUnit = {
  id: 'paths',
  describe:
    "the sessions' paths through the bot's states: transitions, drop-off, transfers and catch-all answers after each state",
  tables: [],
};
