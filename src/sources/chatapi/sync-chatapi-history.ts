// The Chat API as a source of the sync: for each channel, after the Reporter data of its projects, the
// history of the clients whose `chatapi` messages the warehouse holds in the channel's range (from its
// watermark minus the look-back to the oldest watermark of its projects: never past what the Reporter sync
// has stored), every page of it, with each message's status, and each client's unread count as a dated
// snapshot. Batches of clients commit with their rows; the last one moves the watermark with them, so a run
// stopped midway is read again from the same watermark and stores nothing twice (rows replace by key).
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import { EtlError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { type ChatApiClient, createChatApiClient } from '../../platform/chatapi/chatapi-client.js';
import { parseChatApiTime } from '../../platform/chatapi/parse-chatapi-time.js';
import { type UnknownValueCounts, UnknownValues } from '../../platform/reporter/unknown-values.js';
import type { ChatApiChannel } from '../../settings/chatapi-channels.js';
import { makeRunId } from '../../warehouse/run-history.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { stateProjectOf } from './chatapi-events-sql.js';
import {
  type ChatApiHistoryRejectRow,
  type ChatApiMessageRow,
  type ChatApiUnreadRow,
  describeHistoryBatch,
  HISTORY_WATERMARK_KEY,
  SELECT_CHATAPI_CLIENTS,
  SELECT_HISTORY_WATERMARK,
  SELECT_SYNCED_PROJECTS,
} from './chatapi-history-sql.js';

/** The history's largest page (the platform caps `size` at 100). */
const HISTORY_PAGE_SIZE = 100;
/** Clients per committed batch. */
const CLIENTS_PER_BATCH = 200;

export interface ChatApiHistorySummary {
  /** Its row in etl_runs (job sync, project chatapi:<channel>); rejects carry it. Empty when skipped. */
  runId: string;
  channel: string;
  status: 'success' | 'partial' | 'failed' | 'skipped';
  from: string | null;
  to: string | null;
  clients: number;
  messages: number;
  rejects: number;
  requests: number;
  /** Statuses the client does not know, kept as given: per field (`chatapi.status`) and value, {} when none. */
  unknownValues: UnknownValueCounts;
  error: string | null;
  exitCode: number;
}

export interface ChatApiHistoryContext {
  config: Config;
  warehouse: Warehouse;
  log: Logger;
  now?: () => number;
  signal?: AbortSignal;
  /** Backoff base of the Chat API client's retries (tests make it small). */
  backoffBaseMs?: number;
  /** Re-read REPORTER_HISTORY_DAYS whatever the watermark (sync --full). */
  full?: boolean;
  /** What started it, for etl_runs (`manual`, `schedule`). */
  trigger?: string;
  /**
   * Projects whose sync another sync's lease refused in this run: a channel following one of them is skipped
   * (that other sync reads its history after its own Reporter data), so a refused sync makes no request.
   */
  refusedProjects?: readonly string[];
}

/** Syncs the history of every configured channel; a channel's failure does not stop the others. */
export async function syncChatApiHistory(
  ctx: ChatApiHistoryContext,
  channels: readonly ChatApiChannel[] = ctx.config.chatApi.channels,
): Promise<ChatApiHistorySummary[]> {
  const summaries: ChatApiHistorySummary[] = [];
  for (const channel of channels) {
    if (ctx.signal?.aborted) break;
    summaries.push(await syncChannel(ctx, channel));
  }
  return summaries;
}

async function syncChannel(
  ctx: ChatApiHistoryContext,
  channel: ChatApiChannel,
): Promise<ChatApiHistorySummary> {
  const { config, warehouse } = ctx;
  const now = ctx.now ?? Date.now;
  const log = ctx.log.child({ channel: channel.name });
  const summary = createChannelSummary(channel.name);
  const unknownValues = new UnknownValues(log);
  const range = await planHistoryRange(ctx, channel);
  if ('skipped' in range) {
    summary.status = 'skipped';
    summary.error = range.skipped;
    return summary;
  }
  const { projects, from, to } = range;
  summary.from = new Date(from).toISOString();
  summary.to = new Date(to).toISOString();
  if (from >= to) return summary;
  // a row in etl_runs per channel and run: `runs` shows how it ended, its rejects carry its id
  const started = now();
  const runId = makeRunId(started, randomUUID());
  summary.runId = runId;
  await warehouse.startRun({
    runId,
    project: stateProjectOf(channel.name),
    job: 'sync',
    trigger: ctx.trigger ?? 'manual',
  });
  const clients = await warehouse.query(SELECT_CHATAPI_CLIENTS, {
    from: new Date(from),
    to: new Date(to),
    projects,
  });
  const client = createChannelClient(ctx, channel, log);
  try {
    for (let start = 0; start < clients.length; start += CLIENTS_PER_BATCH) {
      if (ctx.signal?.aborted) {
        summary.status = 'failed';
        summary.error = 'stopped by a signal before the range was read';
        summary.exitCode = 75;
        return summary;
      }
      const batch = clients.slice(start, start + CLIENTS_PER_BATCH);
      const read = await readClients(client, batch, { from, to }, config, log);
      for (const m of read.messages) unknownValues.check('chatapi.status', m.status);
      const last = start + CLIENTS_PER_BATCH >= clients.length;
      await warehouse.commitBatch(
        describeHistoryBatch({
          channel: channel.name,
          runId,
          ...read,
          now: now(),
          ...(last ? { watermark: to } : {}),
        }),
      );
      summary.clients += batch.length;
      summary.messages += read.messages.length;
      summary.rejects += read.rejects.length;
    }
    if (clients.length === 0)
      await warehouse.commitBatch(
        describeHistoryBatch({
          channel: channel.name,
          runId,
          messages: [],
          unread: [],
          rejects: [],
          now: now(),
          watermark: to,
        }),
      );
    if (summary.rejects > 0) {
      summary.status = 'partial';
      summary.exitCode = 3;
    }
  } catch (error) {
    if (!(error instanceof EtlError)) throw error;
    summary.status = 'failed';
    summary.error = error.message;
    summary.exitCode = error.exitCode;
    log.error({ code: error.code }, error.message);
  } finally {
    summary.requests = client.requests;
    summary.unknownValues = unknownValues.toJSON();
    await client.close();
    await recordRunEnd(warehouse, runId, summary, now() - started, log);
  }
  return summary;
}

/** The Chat API client of one channel, on the sync's transport settings. */
function createChannelClient(
  ctx: ChatApiHistoryContext,
  channel: ChatApiChannel,
  log: Logger,
): ChatApiClient {
  const { config } = ctx;
  return createChatApiClient({
    config: config.chatApi,
    channel,
    concurrency: config.concurrency,
    retries: config.retries,
    timeoutMs: config.timeoutMs,
    log,
    ...(ctx.backoffBaseMs === undefined ? {} : { backoffBaseMs: ctx.backoffBaseMs }),
  });
}

/** The channel's row in etl_runs closed with its outcome; a failure to record it is logged, not thrown. */
async function recordRunEnd(
  warehouse: Warehouse,
  runId: string,
  summary: ChatApiHistorySummary,
  durationMs: number,
  log: Logger,
): Promise<void> {
  await warehouse
    .finishRun(runId, {
      status: summary.status === 'skipped' ? 'success' : summary.status,
      error: summary.error,
      durationMs,
      requests: summary.requests,
      unknownValues: summary.unknownValues,
    })
    .catch((error: unknown) => log.warn({ err: error }, 'could not record the end of the Chat API run'));
}

/** A channel's summary before anything is read: a success with nothing counted. */
function createChannelSummary(channel: string): ChatApiHistorySummary {
  return {
    runId: '',
    channel,
    status: 'success',
    from: null,
    to: null,
    clients: 0,
    messages: 0,
    rejects: 0,
    requests: 0,
    unknownValues: {},
    error: null,
    exitCode: 0,
  };
}

/** The channel's projects and the range of its history to read, or why the channel is skipped. */
type HistoryRange = { projects: string[]; from: number; to: number } | { skipped: string };

/**
 * The range to read: from the channel's watermark minus the look-back (REPORTER_HISTORY_DAYS at most) to the
 * oldest watermark of its projects; skipped while another sync holds one of them or none has Reporter data.
 */
async function planHistoryRange(ctx: ChatApiHistoryContext, channel: ChatApiChannel): Promise<HistoryRange> {
  const { config, warehouse } = ctx;
  const now = ctx.now ?? Date.now;
  const projects = await projectsOf(warehouse, config, channel);
  const refused = projects.find((p) => ctx.refusedProjects?.includes(p));
  if (refused !== undefined)
    return { skipped: `another sync of project ${refused} is running: the history follows that sync` };
  // the Reporter's watermarks bound the range: its clients are known only up to there
  const watermarks = await Promise.all(projects.map((p) => warehouse.getWatermark(p)));
  const known = watermarks.filter((w): w is number => w !== undefined);
  if (projects.length === 0 || known.length === 0)
    return {
      skipped: `no Reporter data yet for ${channel.project ? `project ${channel.project}` : 'the configured projects'}: the history follows the sync of its project`,
    };
  const to = Math.min(now() - config.safetyLagMs, ...known);
  const saved = await readWatermark(warehouse, channel.name);
  const from = Math.max(
    now() - config.historyMs,
    saved === undefined || ctx.full ? Number.NEGATIVE_INFINITY : saved - config.lookbackMs,
  );
  return { projects, from, to };
}

/**
 * The Reporter projects whose `chatapi` clients are the channel's: its `@project`, else every synced project
 * (those with a watermark) that is configured (a project configured without a name counts as any synced one).
 */
async function projectsOf(warehouse: Warehouse, config: Config, channel: ChatApiChannel): Promise<string[]> {
  if (channel.project) return [channel.project];
  const synced = (await warehouse.query(SELECT_SYNCED_PROJECTS)).map((r) => String(r['project']));
  const named = config.projects.map((p) => p.project);
  if (named.some((name) => name === undefined)) return synced;
  return synced.filter((project) => named.includes(project));
}

async function readWatermark(warehouse: Warehouse, channel: string): Promise<number | undefined> {
  const [row] = await warehouse.query(SELECT_HISTORY_WATERMARK, {
    project: stateProjectOf(channel),
    key: HISTORY_WATERMARK_KEY,
  });
  const value = row?.['value'];
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

/** Reads the clients' histories and unread counts, REPORTER_CONCURRENCY clients at a time. */
async function readClients(
  client: ChatApiClient,
  clients: readonly Record<string, unknown>[],
  range: { from: number; to: number },
  config: Config,
  log: Logger,
): Promise<{
  messages: ChatApiMessageRow[];
  unread: ChatApiUnreadRow[];
  rejects: ChatApiHistoryRejectRow[];
}> {
  const messages: ChatApiMessageRow[] = [];
  const unread: ChatApiUnreadRow[] = [];
  const rejects: ChatApiHistoryRejectRow[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < clients.length; i = next++) {
      const project = String(clients[i]?.['project']);
      const clientId = String(clients[i]?.['client_id']);
      for (let page = 0; ; page++) {
        const answer = await client.history(clientId, range, page, HISTORY_PAGE_SIZE);
        for (const r of answer.rejects)
          rejects.push({
            record_id: clientId,
            raw_json: JSON.stringify(r.raw) ?? 'null',
            error: `not a Chat API history message: ${r.reason}`,
          });
        for (const m of answer.messages) {
          const time = parseChatApiTime(m.timestamp, config.chatApi.timeZone);
          if (time === undefined) {
            rejects.push({
              record_id: m.questionId,
              raw_json: JSON.stringify(m),
              error: `timestamp ${JSON.stringify(m.timestamp)} is not a date-time (REPORTER_CHATAPI_TIMEZONE ${config.chatApi.timeZone})`,
            });
            continue;
          }
          messages.push({
            project,
            client_id: clientId,
            question_id: m.questionId,
            type: m.type,
            message_time_ms: time,
            query: m.query ?? null,
            event: m.event ?? null,
            replies: m.replies ?? null,
            status: m.status ?? null,
          });
        }
        const seen = (page + 1) * Math.max(1, answer.pageSize);
        if (answer.messages.length + answer.rejects.length === 0 || seen >= answer.totalCount) break;
      }
      unread.push({ project, client_id: clientId, unread: await client.unreadCount(clientId) });
      log.debug({ clientId: clientId }, 'Chat API history read');
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(config.concurrency, clients.length)) }, worker),
  );
  return { messages, unread, rejects };
}
