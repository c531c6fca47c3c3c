// Pushgate as a destination unit: run notifications (REPORTER_PUSHGATE_URL, whose pushback id is a secret)
// and `pushgate send` pushes chosen by SQL. It reads no table of the registry by itself (the analyst's query
// chooses the rows); its cursor is pushgate_sends (every push recorded before it is sent).

import { defineSettings, selectErrorCodes } from '../../settings/define-settings.js';
import type { DestinationUnit } from '../destination-unit.js';

export const pushgateDestination: DestinationUnit = {
  id: 'pushgate',
  describe: "Pushgate: run notifications and alerts, and pushes of the analyst's rows to a pushback",
  settings: defineSettings({
    REPORTER_PUSHGATE_URL: {
      describe: 'the notify URL of run notifications (its pushback id is a secret)',
      secret: (config) => [config.pushgate.notify?.pushbackId],
    },
    REPORTER_PUSHGATE_BASE_URL: { describe: 'the platform `pushgate send` pushes to' },
  }),
  reads: () => [],
  cursor: 'pushgate_sends (each push recorded as sending before its request, settled after)',
  missingSetting: () => undefined,
  errorCodes: selectErrorCodes('pushgate.'),
  jobs: [],
};
