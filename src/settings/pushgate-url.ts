// The Pushgate pushback URL the pipeline notifies through (REPORTER_PUSHGATE_URL):
// `<base>/pushgate/push_<pushbackId>`. The pushback id is a secret (whoever has it can write into the team's
// dialog): messages show the URL with only its first 4 characters, never the whole; an id shorter than
// SECRET_MIN_LENGTH is refused (the log could not hide it).
import { z } from 'zod';
import { SECRET_MIN_LENGTH } from '../secrets/redact-secrets.js';

export interface PushgateTarget {
  /** Everything before `/pushgate/`, e.g. `https://bot.example.com`. */
  baseUrl: string;
  pushbackId: string;
}

const PUSHBACK_URL = /^(https?:\/\/[^?#]+?)\/pushgate\/push_([A-Za-z0-9_-]{4,200})$/;

/** The URL for messages: the pushback id cut to its first 4 characters. */
export function redactedPushgateUrl(target: PushgateTarget): string {
  return `${target.baseUrl}/pushgate/push_${target.pushbackId.slice(0, 4)}…`;
}

export const pushgateUrlSetting = z
  .string()
  .trim()
  .transform((text, ctx): PushgateTarget => {
    const m = PUSHBACK_URL.exec(text);
    if (!m) {
      // never the value: it holds the secret
      ctx.addIssue({
        code: 'custom',
        message:
          'expected a pushback URL like https://<host>/pushgate/push_<pushback id> (letters, digits, - and _)',
      });
      return z.NEVER;
    }
    if (m[2]!.length < SECRET_MIN_LENGTH) {
      ctx.addIssue({
        code: 'custom',
        message: `the pushback id is too short: a secret is at least ${SECRET_MIN_LENGTH} characters, shorter ones cannot be kept out of the logs`,
      });
      return z.NEVER;
    }
    return { baseUrl: m[1]!, pushbackId: m[2]! };
  });
