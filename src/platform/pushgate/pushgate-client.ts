// Fires one Pushgate pushback: `POST <base>/pushgate/push_<pushbackId>` with a JSON body, on a profile of
// src/http/ (retries on 429, 5xx and network faults with Retry-After and backoff, timeouts); the pushback id
// is the secret in its path, redacted from every message and log line. A 404 and other 4xx are not retried.
// Pushgate does not deduplicate: callers put an event id in the body, and a 2xx answer that cannot be read
// (cut short, not JSON) is a push done, returned with that note, never sent again.
import { EtlError } from '../../errors.js';
import { PLATFORM_ERROR_SHAPES } from '../../http/error-shapes.js';
import { HttpTransport } from '../../http/http-transport.js';
import type { Logger } from '../../log.js';

export interface PushOptions {
  /** Everything before `/pushgate/`, e.g. `https://bot.example.com`. */
  baseUrl: string;
  /** The setting baseUrl came from (REPORTER_PUSHGATE_URL, REPORTER_PUSHGATE_BASE_URL, ...), for messages. */
  baseUrlSetting?: string | undefined;
  timeoutMs?: number;
  retries?: number;
  log?: Logger;
  backoffBaseMs?: number;
}

/** The pushback id as messages show it: its first 4 characters. */
export const shortPushbackId = (pushbackId: string): string => `${pushbackId.slice(0, 4)}…`;

/** A push Pushgate took (2xx); `unreadable`: its answer could not be read (the push was not sent again). */
export interface PushOutcome {
  unreadable?: string;
}

/** Fires the pushback with `body`; throws an EtlError (its message without the pushback id) when it fails. */
export async function pushToPushgate(
  options: PushOptions,
  pushbackId: string,
  body: unknown,
): Promise<PushOutcome> {
  const name = `Pushgate (pushback ${shortPushbackId(pushbackId)})`;
  const prefix = `${options.baseUrl}/pushgate/push_${encodeURIComponent(pushbackId)}`;
  const http = new HttpTransport({
    baseUrl: options.baseUrl,
    secret: pushbackId,
    concurrency: 1,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    log: options.log,
    ...(options.backoffBaseMs === undefined
      ? {}
      : { backoffBaseMs: options.backoffBaseMs, backoffCapMs: options.backoffBaseMs * 20 }),
    profile: {
      name,
      auth: { kind: 'path' },
      secretName: 'token',
      baseUrlSetting: options.baseUrlSetting ?? 'REPORTER_BASE_URL',
      urlPrefix: () => prefix,
      errorShapes: PLATFORM_ERROR_SHAPES,
      authError: (status, detail) =>
        new EtlError('pushgate.refused', `${name} refused the push with ${status}${detail}`),
    },
  });
  try {
    const answer = await http.write({ method: 'POST', op: '', body });
    return answer.unreadable === undefined ? {} : { unreadable: answer.unreadable };
  } catch (error) {
    if (error instanceof EtlError && error.code === 'reporter.not_found')
      throw new EtlError(
        'pushgate.not_found',
        `${error.message}: the pushback does not exist or was deleted`,
      );
    if (error instanceof EtlError && error.code === 'reporter.bad_request')
      throw new EtlError('pushgate.refused', error.message);
    throw error;
  } finally {
    await http.close();
  }
}
