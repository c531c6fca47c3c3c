// `reporter-etl chatapi-events`: stores the new events of the Chat API channels in chatapi_events, once
// (what the chatapi-events job does) or, with --follow, as they come until Ctrl-C.

import { randomUUID } from 'node:crypto';
import { CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { EXIT } from '../../errors.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { stoppingMessage } from '../../schedule/shutdown-signals.js';
import { channelEventsAsJson, readChannelEvents } from '../../sources/chatapi/read-channel-events.js';
import { selectChannels } from '../../sources/chatapi/select-channels.js';
import { formatCount } from '../../text/format-figures.js';
import { plural } from '../../text/plural.js';
import { makeRunId } from '../../warehouse/run-history.js';
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireDataDir } from '../require-warehouse.js';

const HELP = `reporter-etl chatapi-events [--channel NAME] [--follow] [--json]

Stores the events of the Chat API channels (agent replies, bot responses, campaign messages, response
timeouts, page activity) in the warehouse table chatapi_events, each event once. Each channel is read from
its own cursor (etl_state, project chatapi:<channel>): always GET …/events with an explicit ts, never the
server's shared cursor, which would take the events away from the customer's own app. A channel read for the
first time starts REPORTER_HISTORY_DAYS (${D.REPORTER_HISTORY_DAYS}) back. Without --follow it stops once it has caught up
(when there is nothing new, the server holds the first call up to 30 s).

Options:
  --channel NAME   only this channel of REPORTER_CHATAPI_CHANNELS
  --follow         keep reading as events come (one long poll per channel) until Ctrl-C or SIGTERM;
                   every answer is committed as it arrives, so stopping loses nothing
  --json           the result per channel as JSON on stdout

Configuration: REPORTER_CHATAPI_CHANNELS (required: name=token entries, separated by commas; the token is
a secret, never printed or stored), REPORTER_CHATAPI_BASE_URL (default REPORTER_BASE_URL),
REPORTER_CHATAPI_PATH (${D.REPORTER_CHATAPI_PATH}; /chatadapter/chatapi on some installations),
REPORTER_CHATAPI_TIMEZONE (${D.REPORTER_CHATAPI_TIMEZONE}) the zone of times given without one, REPORTER_DATA_DIR (${D.REPORTER_DATA_DIR}).
The job chatapi-events (reporter-etl schedule) does the same every 5 minutes.

Exit codes: 0 ok, 1 failed (a channel's token refused), 2 configuration, 3 some events rejected (see
etl_rejects), 75 try again later (the Chat API unavailable, the warehouse locked).

Examples (against the emulator):
  REPORTER_CHATAPI_CHANNELS=site=<token> reporter-etl chatapi-events
  reporter-etl chatapi-events --channel site --follow
  reporter-etl sql "select type, count(*) from chatapi_events group by type"
`;

export const chatApiEventsCommand: Command = {
  name: 'chatapi-events',
  help: HELP,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      channel: { type: 'string' },
      follow: { type: 'boolean' },
      json: { type: 'boolean' },
    });
    const config = loadConfig(process.env, { requireToken: false });
    const channels = selectChannels(config.chatApi, values.channel);
    requireDataDir(config);
    const log = createCommandLogger(config);
    const controller = new AbortController();
    const onSignal = (signal: NodeJS.Signals) => {
      if (!controller.signal.aborted && io.signal === undefined)
        io.err(stoppingMessage('chatapi-events', signal, 'the answers being stored'));
      controller.abort();
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    const started = Date.now();
    try {
      const result = await withConfiguredWarehouse(config, 'write', log, async (warehouse) => {
        const reading = readChannelEvents({
          config,
          channels,
          warehouse,
          runId: makeRunId(started, randomUUID()),
          log,
          now: Date.now,
          signal: controller.signal,
          follow: values.follow ?? false,
          onPage: (channel, page) => {
            if (values.follow && page.stored > 0 && !values.json)
              io.err(
                `${channel}: ${plural(page.stored, 'new event')} up to ${new Date(page.cursor).toISOString()}`,
              );
          },
        });
        // a long poll in flight holds nothing: on a signal, stop waiting for it (what was answered is stored)
        const stopped = new Promise<undefined>((resolve) =>
          controller.signal.addEventListener('abort', () => resolve(undefined), { once: true }),
        );
        return Promise.race([reading, stopped]);
      });
      if (!result) return EXIT.ok;
      if (values.json) io.out(JSON.stringify(channelEventsAsJson(result), null, 2));
      else {
        for (const r of result.channels)
          io.out(
            `${r.channel}: ${plural(r.stored, 'new event')} · ${plural(r.read, 'event')} read · ${formatCount(r.rejects)} rejected · cursor ${new Date(r.cursor).toISOString()}`,
          );
        for (const f of result.failures) io.err(`${f.channel}: ${f.message}`);
      }
      if (result.failures.length > 0) return Math.max(...result.failures.map((f) => f.exitCode));
      return result.channels.some((r) => r.rejects > 0) ? EXIT.partial : EXIT.ok;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
