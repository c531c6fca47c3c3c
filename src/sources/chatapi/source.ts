// The Chat API as a source unit: its channels (each channel's token a secret), its tables, error codes and
// the `chatapi-events` job. The history is read by the `sync` job after each project (jobs/sync.ts); the
// `chatapi-events` command is src/cli/commands/chatapi-events.ts (listed by the CLI itself).
import { defineSettings, selectErrorCodes } from '../../settings/define-settings.js';
import type { SourceUnit } from '../source-unit.js';
import { chatApiEventsJob } from './chatapi-events-job.js';
import { CHATAPI_TABLES } from './tables.js';

export const chatApiSource: SourceUnit = {
  id: 'chatapi',
  describe: "the Chat API: the channels' client histories, unread counts and events",
  settings: defineSettings({
    REPORTER_CHATAPI_CHANNELS: {
      describe: 'the channels to read, name=token, separated by commas',
      secret: (config) => config.chatApi.channels.map((c) => c.token),
    },
    REPORTER_CHATAPI_BASE_URL: { describe: "the Chat API's platform (default: the Reporter's)" },
    REPORTER_CHATAPI_PATH: { describe: 'the path of the Chat API on the platform' },
    REPORTER_CHATAPI_TIMEZONE: { describe: 'the zone the Chat API writes its local times in' },
  }),
  tables: CHATAPI_TABLES,
  errorCodes: selectErrorCodes('chatapi.'),
  jobs: [chatApiEventsJob],
  commands: [],
};
