// The Prompter API as a source unit: the questions `prompter ask` sends (src/cli/commands/prompter.ts, listed
// by the CLI itself) and the answers the platform pushes back through the webhook receiver. It reads the
// Chat API's channels and has no setting of its own.
import { selectErrorCodes } from '../../settings/define-settings.js';
import type { SourceUnit } from '../source-unit.js';
import { PROMPTER_TABLES } from './tables.js';

export const prompterSource: SourceUnit = {
  id: 'prompter',
  describe: 'the Prompter API: questions sent to it and the answer options it suggests',
  settings: {},
  tables: PROMPTER_TABLES,
  errorCodes: selectErrorCodes('prompter.'),
  jobs: [],
  commands: [],
};
