// The Chat API channels to read (REPORTER_CHATAPI_CHANNELS): `name=token` entries separated by commas or
// spaces, each optionally `@project` (the Reporter project whose `chatapi` clients are the channel's; default:
// every configured project). The token is the channel's secret (it goes in the path of every Chat API URL): it is never logged,
// printed or stored; the name is what the warehouse, the logs and the messages call the channel. A bare
// token is named after it without giving it away: `chatapi-` and 8 hex digits of its SHA-256.
import { createHash } from 'node:crypto';
import { z } from 'zod';

export interface ChatApiChannel {
  /** Lower-case letters, digits, `-` and `_`: the channel's key in the warehouse and in messages. */
  name: string;
  token: string;
  /** The projectShortName whose `chatapi` sessions are this channel's; undefined: every configured project. */
  project?: string;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
/** The forms the platform issues: `<8 alphanumerics>:<40 hex>` or a UUID; others are accepted as they are. */
const TOKEN = /^[A-Za-z0-9:_-]{8,200}$/;

/** A name for a channel given without one: stable, and says nothing about the token. */
export function nameOfBareToken(token: string): string {
  return `chatapi-${createHash('sha256').update(token).digest('hex').slice(0, 8)}`;
}

export const chatApiChannelsSetting = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const channels: ChatApiChannel[] = [];
    const entries = text.split(/[\s,]+/).filter((entry) => entry !== '');
    for (const [index, entry] of entries.entries()) {
      const equals = entry.indexOf('=');
      const name = equals < 0 ? undefined : entry.slice(0, equals).trim().toLowerCase();
      const value = equals < 0 ? entry : entry.slice(equals + 1).trim();
      const at = value.lastIndexOf('@');
      const token = at < 0 ? value : value.slice(0, at);
      const project = at < 0 ? undefined : value.slice(at + 1);
      // the messages name the entry by its position and name, never by its token
      const where = `entry ${index + 1}${name ? ` (${name})` : ''}`;
      if (name !== undefined && !NAME.test(name)) {
        ctx.addIssue({
          code: 'custom',
          message: `${where}: a channel name is lower-case letters, digits, - and _ (e.g. site=<token>)`,
        });
        continue;
      }
      if (!TOKEN.test(token)) {
        ctx.addIssue({
          code: 'custom',
          message: `${where}: the token is not a Chat API channel token (letters, digits, ':' '-' '_', 8 to 200 characters)`,
        });
        continue;
      }
      if (project !== undefined && project === '') {
        ctx.addIssue({
          code: 'custom',
          message: `${where}: a project name follows the @ (site=<token>@shop-bot)`,
        });
        continue;
      }
      channels.push({ name: name ?? nameOfBareToken(token), token, ...(project ? { project } : {}) });
    }
    const names = channels.map((c) => c.name);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined)
      ctx.addIssue({ code: 'custom', message: `the channel name ${twice} is given twice` });
    const tokens = channels.map((c) => c.token);
    const sameToken = channels.find((c, i) => tokens.indexOf(c.token) !== i);
    if (sameToken)
      ctx.addIssue({ code: 'custom', message: `channel ${sameToken.name} repeats the token of another` });
    return channels;
  });
