// Reads the events of several Chat API channels at once (one long poll each) into chatapi_events: what the
// `chatapi-events` job and command run. A channel that fails (a revoked token, an unreachable server) is
// reported with its reason and does not stop the others.

import type { Config } from '../../config.js';
import { EtlError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { createChatApiClient } from '../../platform/chatapi/chatapi-client.js';
import type { ChatApiChannel } from '../../settings/chatapi-channels.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { type FollowEventsResult, followEvents } from './follow-events.js';

export interface ChannelFailure {
  channel: string;
  code: string;
  message: string;
  exitCode: number;
}

export interface ReadChannelEventsResult {
  channels: FollowEventsResult[];
  failures: ChannelFailure[];
}

export async function readChannelEvents(options: {
  config: Config;
  channels: readonly ChatApiChannel[];
  warehouse: Warehouse;
  runId: string;
  log: Logger;
  now: () => number;
  signal: AbortSignal;
  follow?: boolean;
  onPage?: (channel: string, page: { read: number; stored: number; cursor: number }) => void;
}): Promise<ReadChannelEventsResult> {
  const { config } = options;
  const result: ReadChannelEventsResult = { channels: [], failures: [] };
  await Promise.all(
    options.channels.map(async (channel) => {
      const client = createChatApiClient({
        config: config.chatApi,
        channel,
        concurrency: 1,
        retries: config.retries,
        log: options.log,
      });
      try {
        result.channels.push(
          await followEvents({
            warehouse: options.warehouse,
            client,
            timeZone: config.chatApi.timeZone,
            runId: options.runId,
            startAt: options.now() - config.historyMs,
            signal: options.signal,
            log: options.log,
            now: options.now,
            ...(options.follow ? { follow: true } : {}),
            ...(options.onPage ? { onPage: (page) => options.onPage?.(channel.name, page) } : {}),
          }),
        );
      } catch (error) {
        if (!(error instanceof EtlError)) throw error;
        result.failures.push({
          channel: channel.name,
          code: error.code,
          message: error.message,
          exitCode: error.exitCode,
        });
        options.log.error({ channel: channel.name, code: error.code }, error.message);
      } finally {
        await client.close();
      }
    }),
  );
  result.channels.sort((a, b) => a.channel.localeCompare(b.channel));
  return result;
}

/** The result as `--json` and the job's details show it: each channel's cursor in ISO 8601, as every JSON time. */
export function channelEventsAsJson(result: ReadChannelEventsResult): unknown {
  return {
    ...result,
    channels: result.channels.map((c) => ({ ...c, cursor: new Date(c.cursor).toISOString() })),
  };
}
