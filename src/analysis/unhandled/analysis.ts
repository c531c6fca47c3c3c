// The unhandled questions as a unit: clusters of the catch-all messages, computed from the warehouse by
// `reporter-etl unhandled` into unhandled_* (docs/unhandled.md). It reads nothing from the platform itself; the
// command is the CLI's. Its settings: the optional embeddings endpoint (a key in its URL is a secret).
import { defineSettings } from '../../settings/define-settings.js';
import type { AnalysisUnit } from '../analysis-unit.js';
import { UNHANDLED_TABLES } from './tables.js';

export const unhandledAnalysis: AnalysisUnit = {
  id: 'unhandled',
  describe: 'clusters of the unhandled (catch-all) questions, computed from the warehouse into unhandled_*',
  tables: UNHANDLED_TABLES,
  settings: defineSettings({
    REPORTER_EMBEDDINGS_URL: {
      describe: 'an OpenAI-compatible embeddings endpoint to cluster the unhandled questions with',
      secret: (config) => [config.embeddings?.key],
    },
    REPORTER_EMBEDDINGS_MODEL: { describe: 'the model the embeddings requests name' },
  }),
};
