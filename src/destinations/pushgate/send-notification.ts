// Sends a run's notification to REPORTER_PUSHGATE_URL. Never throws: a notification that cannot be delivered
// (after the transport's retries on transient faults) is returned as `failed: <reason>`, for etl_runs, and
// the run keeps its own status. The reason never holds the pushback id.
import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import { pushToPushgate } from '../../platform/pushgate/pushgate-client.js';
import { redactedPushgateUrl } from '../../settings/pushgate-url.js';
import type { NotificationEvent } from './notification-event.js';

/**
 * What etl_runs.notification records: `sent`, `sent: <note>` (delivered, its answer unreadable: not sent
 * again) or `failed: <reason>`.
 */
export type NotificationOutcome = 'sent' | `sent: ${string}` | `failed: ${string}`;

export async function sendNotification(
  config: Config,
  event: NotificationEvent,
  log: Logger,
  options: { backoffBaseMs?: number } = {},
): Promise<NotificationOutcome | undefined> {
  const target = config.pushgate.notify;
  if (!target) return undefined;
  try {
    const pushed = await pushToPushgate(
      {
        baseUrl: target.baseUrl,
        baseUrlSetting: 'REPORTER_PUSHGATE_URL',
        timeoutMs: config.timeoutMs,
        retries: Math.min(config.retries, 4),
        log,
        ...options,
      },
      target.pushbackId,
      event,
    );
    log.info({ eventId: event.eventId, to: redactedPushgateUrl(target) }, 'notification sent');
    return pushed.unreadable === undefined
      ? 'sent'
      : `sent: ${pushed.unreadable.split(target.pushbackId).join('…')}`;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error))
      .split(target.pushbackId)
      .join('…');
    log.warn({ eventId: event.eventId, to: redactedPushgateUrl(target), err: reason }, 'notification failed');
    return `failed: ${reason}`;
  }
}
