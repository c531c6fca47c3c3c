// Which Chat API channels a command or job reads: all of REPORTER_CHATAPI_CHANNELS, or the one named by
// --channel; an empty setting or an unknown name is a usage error that says what to set.

import type { ChatApiConfig } from '../../config.js';
import { EtlError } from '../../errors.js';
import type { ChatApiChannel } from '../../settings/chatapi-channels.js';

export function selectChannels(config: ChatApiConfig, name?: string): readonly ChatApiChannel[] {
  if (config.channels.length === 0)
    throw new EtlError(
      'chatapi.no_channels',
      'REPORTER_CHATAPI_CHANNELS: is empty; list the Chat API channels to read as name=token, separated by commas',
      { kind: 'usage' },
    );
  if (name === undefined) return config.channels;
  const channel = config.channels.find((c) => c.name === name.toLowerCase());
  if (!channel)
    throw new EtlError(
      'chatapi.no_channels',
      `--channel ${name}: REPORTER_CHATAPI_CHANNELS has no such channel (it has ${config.channels.map((c) => c.name).join(', ')})`,
      { kind: 'usage' },
    );
  return [channel];
}
