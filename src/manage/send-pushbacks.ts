// `pushgate send`: fires the pushbacks of the rows a SQL query chooses from the warehouse (a bot that stored
// its pushback id in sessionData: `select value as pushback_id from session_data where key = 'pushbackId'`).
// Each row is one push: body `{eventId, event?, data}` where data holds the row's other columns. eventId is
// a hash of the pushback id, the event and the data (and --key): the same row gives the same id, so a row
// already sent is not sent again, and a resend (a retry, an unsettled push) is harmless to a bot that keeps
// the ids it saw. Dry run by default; with apply, batch by batch, each push recorded in pushgate_sends as
// 'sending' before its request and settled ('sent' or 'failed') after. The warehouse is never held while
// Pushgate is asked.
import { createHash, randomUUID } from 'node:crypto';
import { EtlError, UsageError } from '../errors.js';
import type { Logger } from '../log.js';
import { pushToPushgate, shortPushbackId } from '../platform/pushgate/pushgate-client.js';
import type { PlainValue } from '../warehouse/warehouse.js';
import { describePushQuery, PUSHGATE_SENDS_SQL, selectPushRows } from './pushgate-sends-sql.js';
import { cleanQuery } from './select-label-targets.js';
import type { UseQuerySandbox } from './use-query-sandbox.js';
import type { UseWarehouse } from './use-warehouse.js';

export const DEFAULT_PUSH_BATCH_SIZE = 50;
const PUSHBACK_ID = /^[A-Za-z0-9_-]{1,200}$/;

export interface PushToSend {
  eventId: string;
  pushbackId: string;
  body: { eventId: string; event?: string; data: Record<string, PlainValue> };
}

export interface SendPushbacksSummary {
  dryRun: boolean;
  /** One invocation's id in pushgate_sends (apply only). */
  runId: string | null;
  /** Rows the query returned. */
  selected: number;
  /** Rows that repeat another row (same eventId): one push for them. */
  duplicates: number;
  /** Already sent by an earlier run (not sent again). */
  alreadySent: number;
  /** Of the rest, pushes an earlier run recorded as 'sending' and never settled (sent again, harmlessly). */
  unsettled: number;
  toSend: number;
  sent: number;
  failed: { pushbackId: string; eventId: string; error: string }[];
  batches: number;
  /** The first pushes to send (pushback ids shortened). */
  sample: { pushback: string; eventId: string; event: string | null; data: string }[];
}

export interface SendPushbacksDeps {
  useWarehouse: UseWarehouse;
  useSandbox: UseQuerySandbox;
  baseUrl: string;
  /** The setting baseUrl came from, for messages. */
  baseUrlSetting?: string | undefined;
  log: Logger;
  timeoutMs?: number;
  retries?: number;
  concurrency?: number;
  backoffBaseMs?: number;
  now?: () => number;
}

export interface SendPushbacksRequest {
  query: string;
  apply: boolean;
  batchSize: number;
  /** Part of every eventId: a new key sends the same rows again. */
  key?: string | undefined;
  sampleSize?: number;
}

function eventIdOf(
  pushbackId: string,
  event: string | undefined,
  data: Record<string, PlainValue>,
  key = '',
): string {
  const sorted = Object.fromEntries(Object.entries(data).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return createHash('sha256')
    .update(JSON.stringify([key, pushbackId, event ?? null, sorted]))
    .digest('hex')
    .slice(0, 32);
}

/** Checks the query (one SELECT with a text pushback_id column) and reads its rows as pushes. */
async function selectPushes(
  useSandbox: UseQuerySandbox,
  query: string,
  key?: string,
): Promise<{ pushes: PushToSend[]; selected: number }> {
  const sql = cleanQuery(query);
  const hint = `e.g. --sql "select value as pushback_id from session_data where key = 'pushbackId'"`;
  if (sql === '')
    throw new UsageError(
      `--sql is empty: give a SELECT returning pushback_id; ${hint}`,
      'pushgate.bad_selection',
    );
  return useSandbox(async (sandbox) => {
    let statements: number;
    try {
      statements = await sandbox.countStatements(sql);
    } catch (cause) {
      if (cause instanceof EtlError) throw cause; // the sandbox's own: its time limit, a writer, memory
      throw new UsageError(
        `--sql does not parse (${cause instanceof Error ? cause.message : String(cause)}); ${hint}`,
        'pushgate.bad_selection',
      );
    }
    if (statements !== 1)
      throw new UsageError(
        `--sql holds ${statements} statements: give exactly one SELECT; ${hint}`,
        'pushgate.bad_selection',
      );
    let columns: { name: string; type: string }[];
    try {
      columns = (await sandbox.query(describePushQuery(sql))).map((r) => ({
        name: String(r['column_name']),
        type: String(r['column_type']),
      }));
    } catch (cause) {
      if (cause instanceof EtlError) throw cause;
      throw new UsageError(
        `--sql fails on the warehouse (it must be one SELECT over its tables): ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}; ${hint}`,
        'pushgate.bad_selection',
      );
    }
    const id = columns.find((c) => c.name === 'pushback_id');
    if (!id)
      throw new UsageError(
        `--sql returns ${columns.map((c) => c.name).join(', ') || 'no column'}; it must return a column named pushback_id; ${hint}`,
        'pushgate.bad_selection',
      );
    if (id.type !== 'VARCHAR')
      throw new UsageError(
        `--sql returns pushback_id as ${id.type}; pushback ids are text (VARCHAR)`,
        'pushgate.bad_selection',
      );
    const rows = await sandbox.query(selectPushRows(sql));
    const pushes = rows.map((row, index) => {
      const pushbackId = row['pushback_id'];
      if (typeof pushbackId !== 'string' || !PUSHBACK_ID.test(pushbackId))
        throw new UsageError(
          `--sql: row ${index + 1} has ${pushbackId === null ? 'no pushback_id' : 'a pushback_id that is not one (letters, digits, - and _)'}; filter such rows out (where pushback_id is not null)`,
          'pushgate.bad_selection',
        );
      const event = row['event'] === null || row['event'] === undefined ? undefined : String(row['event']);
      const data: Record<string, PlainValue> = {};
      for (const [name, value] of Object.entries(row))
        if (name !== 'pushback_id' && name !== 'event')
          data[name] = value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
      const eventId = eventIdOf(pushbackId, event, data, key);
      return { eventId, pushbackId, body: { eventId, ...(event === undefined ? {} : { event }), data } };
    });
    return { pushes, selected: rows.length };
  });
}

/** Runs `fn` over `items` with at most `limit` at a time. */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

export async function sendPushbacks(
  deps: SendPushbacksDeps,
  request: SendPushbacksRequest,
): Promise<SendPushbacksSummary> {
  const now = deps.now ?? Date.now;
  const { pushes, selected } = await selectPushes(deps.useSandbox, request.query, request.key);
  const unique = [...new Map(pushes.map((p) => [p.eventId, p])).values()];
  const statuses = new Map<string, string>();
  if (unique.length > 0)
    await deps.useWarehouse(async (w) => {
      for (const row of await w.query(PUSHGATE_SENDS_SQL.statuses, {
        event_ids: unique.map((p) => p.eventId),
      }))
        statuses.set(String(row['event_id']), String(row['status']));
    });
  const todo = unique.filter((p) => statuses.get(p.eventId) !== 'sent');
  const batches: PushToSend[][] = [];
  for (let i = 0; i < todo.length; i += request.batchSize) batches.push(todo.slice(i, i + request.batchSize));
  const summary: SendPushbacksSummary = {
    dryRun: !request.apply,
    runId: request.apply
      ? `pushgate-${new Date(now()).toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`
      : null,
    selected,
    duplicates: pushes.length - unique.length,
    alreadySent: unique.length - todo.length,
    unsettled: todo.filter((p) => statuses.get(p.eventId) === 'sending').length,
    toSend: todo.length,
    sent: 0,
    failed: [],
    batches: batches.length,
    sample: todo.slice(0, request.sampleSize ?? 10).map((p) => ({
      pushback: shortPushbackId(p.pushbackId),
      eventId: p.eventId,
      event: p.body.event ?? null,
      data: JSON.stringify(p.body.data),
    })),
  };
  if (!request.apply) return summary;
  const query = cleanQuery(request.query);
  for (const [index, batch] of batches.entries()) {
    // recorded before any request: no push reaches Pushgate unrecorded
    await deps.useWarehouse(async (w) => {
      for (const p of batch)
        await w.query(PUSHGATE_SENDS_SQL.insertSending, {
          event_id: p.eventId,
          run_id: summary.runId,
          pushback_id: p.pushbackId,
          body: JSON.stringify(p.body),
          query,
          batch: index + 1,
          batches: batches.length,
          started_at: new Date(now()),
        });
    });
    /** `error`: not sent; `note`: sent, its answer unreadable (recorded in the error column of a 'sent' row). */
    const outcomes: { push: PushToSend; error?: string; note?: string }[] = [];
    await eachLimited(batch, deps.concurrency ?? 4, async (push) => {
      try {
        const pushed = await pushToPushgate(
          {
            baseUrl: deps.baseUrl,
            baseUrlSetting: deps.baseUrlSetting,
            log: deps.log,
            ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
            ...(deps.retries === undefined ? {} : { retries: deps.retries }),
            ...(deps.backoffBaseMs === undefined ? {} : { backoffBaseMs: deps.backoffBaseMs }),
          },
          push.pushbackId,
          push.body,
        );
        outcomes.push(
          pushed.unreadable === undefined
            ? { push }
            : { push, note: pushed.unreadable.split(push.pushbackId).join('…') },
        );
      } catch (error) {
        if (!(error instanceof EtlError)) throw error;
        outcomes.push({ push, error: error.message.split(push.pushbackId).join('…') });
      }
    });
    await deps.useWarehouse(async (w) => {
      for (const o of outcomes)
        await w.query(PUSHGATE_SENDS_SQL.settle, {
          event_id: o.push.eventId,
          run_id: summary.runId,
          status: o.error === undefined ? 'sent' : 'failed',
          error: o.error ?? o.note ?? null,
          finished_at: new Date(now()),
        });
    });
    for (const o of outcomes) {
      if (o.error === undefined) summary.sent++;
      else
        summary.failed.push({
          pushbackId: shortPushbackId(o.push.pushbackId),
          eventId: o.push.eventId,
          error: o.error,
        });
    }
    deps.log.info(
      { batch: index + 1, batches: batches.length, sent: summary.sent, failed: summary.failed.length },
      'pushgate batch settled',
    );
  }
  return summary;
}
