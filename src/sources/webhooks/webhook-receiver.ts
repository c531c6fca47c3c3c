// The webhook receiver: an HTTP server for the platform's pushes (POST /webhooks/chatapi, POST
// /webhooks/prompter). A request is answered 200 once its body is on disk in the spool (spool.ts); a loader
// moves the spool into the warehouse every second, in one transaction per batch with the spool offset, and
// never holds the warehouse between batches (readers and the sync get in; a locked warehouse only delays the
// load). The HTTP side is webhook-http-server.ts (limits against slow clients, the door) and
// webhook-request-handler.ts (the key, the body's limits, the payloads), the spools receiver-spools.ts;
// here, the load loop (the loader itself: load-spool.ts) and the stop.
import { randomUUID } from 'node:crypto';
import { CONFIG_DEFAULTS, type Config, WEBHOOKS_LOAD_MAX_BYTES } from '../../config.js';
import { prepareTrustedFolder } from '../../files/trusted-folder.js';
import type { Logger } from '../../log.js';
import type { ChatApiChannel } from '../../settings/chatapi-channels.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { LOAD_MAX_RECORDS, type SpoolLoader } from './load-spool.js';
import { openReceiverSpools } from './receiver-spools.js';
import { spoolDirOf } from './spool.js';
import { type DoorLimits, openWebhookDoor } from './webhook-http-server.js';
import { createWebhookRequestHandler, type ReceiverCounts } from './webhook-request-handler.js';

export type { ReceiverCounts } from './webhook-request-handler.js';

export interface WebhookReceiverOptions {
  host: string;
  port: number;
  dataDir: string;
  warehouse: Warehouse;
  /** REPORTER_WEBHOOK_KEY: when set, every request must carry ?key=<it>. */
  key?: string | undefined;
  channels: readonly ChatApiChannel[];
  /** REPORTER_CHATAPI_TIMEZONE. */
  timeZone: string;
  log: Logger;
  /** How often the spool is loaded into the warehouse (default 1 s). */
  loadEveryMs?: number;
  /** REPORTER_WEBHOOKS_LOAD_MAX_BYTES: the spooled bytes of one load transaction at most (default WEBHOOKS_LOAD_MAX_BYTES). */
  loadMaxBytes?: number;
  now?: () => number;
  /** How the port was given, for the message when it is taken (`--port 8790`, `REPORTER_WEBHOOKS_PORT=8790`). */
  portGivenAs?: string | undefined;
  /** The HTTP limits (webhook-http-server.ts's DOOR_LIMITS unless given: tests shorten them). */
  limits?: Partial<DoorLimits> | undefined;
  /** At most this many connections open (default: half the file-descriptor limit, at most 10,000). */
  maxConnections?: number | undefined;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  readonly counts: ReceiverCounts;
  /** Loads everything acknowledged until now (the loader does it every second), after a load in flight. */
  loadNow(): Promise<void>;
  /** Stops taking requests, answers those in flight, loads everything acknowledged, removes the spool. */
  close(): Promise<void>;
}

/** The receiver's options as the configuration gives them (host and port: override them for --host/--port). */
export function configuredReceiverOptions(
  config: Config,
  warehouse: Warehouse,
  log: Logger,
): WebhookReceiverOptions {
  return {
    host: config.webhooks.host,
    port: config.webhooks.port ?? CONFIG_DEFAULTS.REPORTER_WEBHOOKS_PORT,
    portGivenAs:
      config.webhooks.port === undefined
        ? `the default port ${CONFIG_DEFAULTS.REPORTER_WEBHOOKS_PORT} (REPORTER_WEBHOOKS_PORT)`
        : `REPORTER_WEBHOOKS_PORT=${config.webhooks.port}`,
    dataDir: config.dataDir,
    warehouse,
    key: config.webhooks.key,
    channels: config.chatApi.channels,
    timeZone: config.chatApi.timeZone,
    log,
    loadEveryMs: config.webhooks.loadEveryMs,
    loadMaxBytes: config.webhooks.loadMaxBytes,
  };
}

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const now = options.now ?? Date.now;
  const { warehouse, log } = options;
  const dir = spoolDirOf(options.dataDir);
  // another user who can write to it could put events in it without the key, or link it elsewhere
  prepareTrustedFolder(dir, { setting: 'REPORTER_DATA_DIR' });
  const runId = `webhooks-${new Date(now()).toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
  const spools = await openReceiverSpools({ dir, now, log });
  const counts: ReceiverCounts = { accepted: 0, rejected: 0, unauthorized: 0, loaded: 0 };
  const door = await openWebhookDoor({
    host: options.host,
    port: options.port,
    portGivenAs: options.portGivenAs,
    limits: options.limits,
    maxConnections: options.maxConnections,
    log,
    handle: createWebhookRequestHandler({
      key: options.key,
      channels: options.channels,
      counts,
      now,
      append: (record) => spools.append(record),
    }),
  }).catch(async (error: unknown) => {
    await spools.discard();
    throw error;
  });

  let loading: Promise<void> | undefined;
  let closed: Promise<void> | undefined;
  let warnedAt = 0;
  const loadOnce = async (): Promise<void> => {
    counts.loaded += await spools.load(loader);
  };
  const loader: SpoolLoader = {
    warehouse,
    log,
    context: () => ({ channels: options.channels, timeZone: options.timeZone, runId, now: now() }),
    limits: { maxBytes: options.loadMaxBytes ?? WEBHOOKS_LOAD_MAX_BYTES, maxRecords: LOAD_MAX_RECORDS },
  };
  const load = (): Promise<void> => {
    loading ??= loadOnce().finally(() => {
      loading = undefined;
    });
    return loading;
  };
  const timer = setInterval(() => {
    load().catch((error: unknown) => {
      // a locked warehouse (a sync holding it longer than REPORTER_LOCK_WAIT_SECONDS): the spool keeps it all
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        log.warn({ err: error }, 'could not load the webhook spool into the warehouse yet: it stays on disk');
      }
    });
  }, options.loadEveryMs ?? 1_000);

  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${door.port}`,
    port: door.port,
    counts,
    // a load in flight took the records spooled before it: wait for it, then load what came since
    loadNow: async () => {
      await loading?.catch(() => undefined);
      await load();
    },
    close() {
      closed ??= (async () => {
        clearInterval(timer);
        await door.close();
        await loading?.catch(() => undefined);
        await spools.close(loader);
      })();
      return closed;
    },
  };
}
