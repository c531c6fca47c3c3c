// The webhook receiver: an HTTP server for the platform's pushes (POST /webhooks/chatapi, POST
// /webhooks/prompter). A request is answered 200 once its body is on disk in the spool (spool.ts); a loader
// moves the spool into the warehouse every second, in one transaction per batch with the spool offset, and
// never holds the warehouse between batches (readers and the sync get in; a locked warehouse only delays the
// load). With REPORTER_WEBHOOK_KEY set, a request without `?key=<it>` is refused (401) and nothing is kept.
// A body that is not JSON or does not fit gets 400 with the reason, and is kept in etl_rejects.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ChatApiChannel } from '../chatapi-channels.js';
import { CONFIG_DEFAULTS, type Config, WEBHOOKS_LOAD_MAX_BYTES } from '../config.js';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { LOAD_MAX_RECORDS, loadSpoolFile, loadSpoolRecords, type SpoolLoader } from './load-spool.js';
import { forgetSpoolStatements } from './load-spool-sql.js';
import { redactRejectReason, redactTokens } from './redact-tokens.js';
import { createSpool, isLeftBehind, listSpools, removeSpool, type Spool, spoolDirOf } from './spool.js';
import {
  type ChatApiPayload,
  chatApiPayload,
  describeProblems,
  prompterPayload,
  wellFormed,
} from './webhook-payloads.js';

/** A body larger than this is refused (413): a payload of the platform is a few kilobytes. */
const MAX_BODY_BYTES = 1024 * 1024;
/** What of a rejected body is kept in etl_rejects (load-spool.ts keeps as much of a refused record). */
const MAX_KEPT_BYTES = 64 * 1024;
/** A spool larger than this is replaced by a new one once it is loaded. */
const ROTATE_BYTES = 64 * 1024 * 1024;

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
}

export interface ReceiverCounts {
  accepted: number;
  rejected: number;
  unauthorized: number;
  loaded: number;
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
  const runId = `webhooks-${new Date(now()).toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
  let spool: Spool = await createSpool(dir, now());
  /** Spools of earlier processes (a kill -9), and of this one before a rotation: loaded, then removed. */
  const leftovers = new Set(listSpools(dir, spool.name).filter((name) => isLeftBehind(dir, name)));
  /** Spools of receivers that end while this one runs (several share a data directory) join at a load. */
  const findLeftovers = (): void => {
    for (const name of listSpools(dir, spool.name))
      if (!leftovers.has(name) && isLeftBehind(dir, name)) leftovers.add(name);
  };
  const channelOf = new Map(options.channels.map((c) => [c.token, c.name]));
  const knownTokens = options.channels.map((c) => c.token);
  const counts: ReceiverCounts = { accepted: 0, rejected: 0, unauthorized: 0, loaded: 0 };
  const keyDigest = options.key === undefined ? undefined : digest(options.key);
  let inFlight = 0;
  let closing = false;

  const answer = (response: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    response.end(text);
  };
  const reject = async (
    response: ServerResponse,
    status: number,
    endpoint: string,
    raw: string,
    reason: string,
  ) => {
    counts.rejected++;
    await spool.append({
      route: 'reject',
      receivedAt: now(),
      // a malformed Chat API body may still carry the channel token: it is kept without it, in any form
      body: redactTokens(raw, knownTokens, MAX_KEPT_BYTES),
      reason: redactRejectReason(reason, knownTokens),
      endpoint,
    });
    answer(response, status, { error: status === 413 ? 'too_large' : 'bad_request', message: reason });
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', 'http://receiver');
    const route =
      url.pathname === '/webhooks/chatapi'
        ? 'chatapi'
        : url.pathname === '/webhooks/prompter'
          ? 'prompter'
          : undefined;
    if (request.method === 'GET' && url.pathname === '/healthz') return answer(response, 200, { ok: true });
    if (!route)
      return answer(response, 404, {
        error: 'not_found',
        message: 'POST /webhooks/chatapi or /webhooks/prompter',
      });
    if (request.method !== 'POST')
      return answer(response, 405, { error: 'method_not_allowed', message: 'POST only' });
    if (keyDigest && !sameKey(keyDigest, url.searchParams.get('key'))) {
      counts.unauthorized++;
      request.resume();
      return answer(response, 401, {
        error: 'unauthorized',
        message: 'a wrong or missing ?key= (REPORTER_WEBHOOK_KEY)',
      });
    }
    const endpoint = `webhooks/${route}`;
    const body = await readBody(request, MAX_BODY_BYTES);
    if (body.tooLarge)
      return reject(response, 413, endpoint, body.text, `the body is larger than ${MAX_BODY_BYTES} bytes`);
    let parsed: unknown;
    try {
      parsed = wellFormed(JSON.parse(body.text));
    } catch (error) {
      return reject(response, 400, endpoint, body.text, `the body is not JSON: ${(error as Error).message}`);
    }
    const result = (route === 'chatapi' ? chatApiPayload : prompterPayload).safeParse(parsed);
    if (!result.success)
      return reject(
        response,
        400,
        endpoint,
        body.text,
        `not a ${route === 'chatapi' ? 'Chat API' : 'Prompter'} payload: ${describeProblems(result.error)}`,
      );
    if (route === 'chatapi') {
      // the token is a secret, never on disk: the spool keeps the channel it names instead
      const objects = result.data as ChatApiPayload;
      await spool.append({
        route,
        receivedAt: now(),
        body: objects.map(({ token: _token, ...object }) => object),
        channels: objects.map((o) => (o.token === undefined ? null : (channelOf.get(o.token) ?? null))),
      });
    } else await spool.append({ route, receivedAt: now(), body: result.data });
    counts.accepted++;
    answer(response, 200, {});
  };

  const server = createServer((request, response) => {
    if (closing) {
      response.setHeader('connection', 'close');
      return answer(response, 503, { error: 'stopping', message: 'the receiver is stopping: send again' });
    }
    inFlight++;
    handle(request, response)
      .catch((error: unknown) => {
        // the spool could not be written (a full disk): the platform resends what was not acknowledged
        log.error({ err: error }, 'webhook request failed: answered 503');
        if (!response.headersSent)
          answer(response, 503, { error: 'unavailable', message: 'could not store the request' });
      })
      .finally(() => {
        inFlight--;
      });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((listening, failed) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      failed(
        new EtlError(
          error.code === 'EADDRINUSE' ? 'webhooks.port_in_use' : 'webhooks.listen_failed',
          error.code === 'EADDRINUSE'
            ? `--port ${options.port}: another process listens on it (REPORTER_WEBHOOKS_PORT)`
            : `cannot listen on ${options.host}:${options.port}: ${error.message}`,
          { kind: 'usage', cause: error },
        ),
      ),
    );
    server.listen(options.port, options.host, () => listening());
  });
  const port = (server.address() as AddressInfo).port;

  let loading: Promise<void> | undefined;
  let warnedAt = 0;
  const loadOnce = async (): Promise<void> => {
    findLeftovers();
    // spools of earlier processes first: their rows came first
    for (const name of [...leftovers]) {
      const path = join(dir, name);
      const loaded = await loadSpoolFile(loader, path, name);
      if (loaded > 0) {
        counts.loaded += loaded;
        log.info({ spool: name, records: loaded }, 'loaded the spool of an earlier receiver');
      }
      removeSpool(path);
      await warehouse.execute(forgetSpoolStatements(name));
      leftovers.delete(name);
    }
    const taken = spool.takeDurable();
    if (taken.records.length > 0) {
      try {
        await loadSpoolRecords(loader, spool.name, taken.records, taken.offset);
      } catch (error) {
        spool.giveBack(taken);
        throw error;
      }
      counts.loaded += taken.records.length;
    }
    if (spool.size > ROTATE_BYTES && !closing) {
      const full = spool;
      spool = await createSpool(dir, now());
      // records it acknowledged since the take are loaded from the file with the leftovers
      leftovers.add(full.name);
      await full.close();
    }
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
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    port,
    counts,
    // a load in flight took the records spooled before it: wait for it, then load what came since
    loadNow: async () => {
      await loading?.catch(() => undefined);
      await load();
    },
    async close() {
      closing = true;
      clearInterval(timer);
      await new Promise<void>((done) => server.close(() => done()));
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 10));
      await loading?.catch(() => undefined);
      await load();
      await spool.close();
      removeSpool(spool.path);
      await warehouse.execute(forgetSpoolStatements(spool.name));
    },
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares keys in constant time (their digests: equal lengths whatever was sent). */
function sameKey(expected: Buffer, given: string | null): boolean {
  return given !== null && timingSafeEqual(expected, digest(given));
}

async function readBody(
  request: IncomingMessage,
  limit: number,
): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) tooLarge = true;
    else chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge };
}
