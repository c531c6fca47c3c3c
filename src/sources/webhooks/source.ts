// The webhook receiver as a source unit: what the platform pushes (Chat API answers; the Prompter's answers,
// which are the Prompter's tables). Its key is a secret. The rows arrive pushed, so there is no pull: the
// `webhooks` command (src/cli/commands/webhooks.ts, listed by the CLI itself) receives and loads them.
import { defineSettings, selectErrorCodes } from '../../settings/define-settings.js';
import type { SourceUnit } from '../source-unit.js';
import { WEBHOOKS_TABLES } from './tables.js';

export const webhooksSource: SourceUnit = {
  id: 'webhooks',
  describe: "the platform's pushes: Chat API answers and agent replies, Prompter answer options",
  settings: defineSettings({
    REPORTER_WEBHOOK_KEY: {
      describe: 'the key a push must carry (at least 16 characters)',
      secret: (config) => [config.webhooks.key],
    },
    REPORTER_WEBHOOKS_HOST: { describe: 'the address the receiver listens on' },
    REPORTER_WEBHOOKS_PORT: { describe: 'the port the receiver listens on' },
    REPORTER_WEBHOOKS_LOAD_SECONDS: { describe: 'how often the spool is loaded into the warehouse' },
    REPORTER_WEBHOOKS_LOAD_MAX_BYTES: { describe: 'the largest spooled request one load takes' },
  }),
  tables: WEBHOOKS_TABLES,
  errorCodes: selectErrorCodes('webhooks.'),
  jobs: [],
  commands: [],
};
