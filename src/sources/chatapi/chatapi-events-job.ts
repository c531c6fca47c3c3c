// Job `chatapi-events`: follows the events of every Chat API channel of REPORTER_CHATAPI_CHANNELS into
// chatapi_events (agent replies, bot responses, timeouts, page activity), each from its own cursor
// (src/sources/chatapi/follow-events.ts), every 5 minutes. A channel never read before starts REPORTER_HISTORY_DAYS
// back. Without channels the job is off (missingSetting): never scheduled, and `run chatapi-events` exits 2.

import { EXIT } from '../../errors.js';
import { plural } from '../../text/plural.js';
import type { SourceJobResult, SourceJobSpec } from '../source-unit.js';
import { selectChannels } from './select-channels.js';

export const chatApiEventsJob: SourceJobSpec = {
  id: 'chatapi-events',
  describe: 'stores the new events of every Chat API channel (REPORTER_CHATAPI_CHANNELS) in chatapi_events',
  defaultSchedule: '*/5 * * * *',
  needsApi: false,
  missingSetting: (config) =>
    config.chatApi.channels.length === 0
      ? { setting: 'REPORTER_CHATAPI_CHANNELS', meaning: 'the Chat API channels to read, name=token' }
      : undefined,
  async run(ctx): Promise<SourceJobResult> {
    const { config } = ctx;
    // loaded when it runs: the unit (and the registries above it) stays cheap to import
    const { channelEventsAsJson, readChannelEvents } = await import('./read-channel-events.js');
    const channels = selectChannels(config.chatApi);
    const { channels: done, failures } = await ctx.useWarehouse((warehouse) =>
      readChannelEvents({
        config,
        channels,
        warehouse,
        runId: ctx.runId,
        log: ctx.log,
        now: ctx.now,
        signal: ctx.signal,
      }),
    );
    const rejects = done.reduce((sum, r) => sum + r.rejects, 0);
    const lines = done.map(
      (r) =>
        `${r.channel}: ${plural(r.stored, 'new event')} (${plural(r.read, 'event')} read, ${r.rejects} rejected) up to ${new Date(r.cursor).toISOString()}`,
    );
    const failed = failures.map((f) => `${f.channel}: ${f.message}`);
    const status = failures.length > 0 ? 'failed' : rejects > 0 ? 'partial' : 'success';
    return {
      status,
      summary: [...lines, ...failed].join('; '),
      ...(failures.length > 0 ? { error: failed.join('; ') } : {}),
      exitCode:
        failures.length > 0
          ? Math.max(...failures.map((f) => f.exitCode))
          : rejects > 0
            ? EXIT.partial
            : EXIT.ok,
      details: channelEventsAsJson({ channels: done, failures }),
    };
  },
};
