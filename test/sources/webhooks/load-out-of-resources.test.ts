// Loading the spool when the warehouse runs out of memory: an out-of-memory error is never a record's fault.
// A batch that does not fit is halved; one record that still does not fit fails the load (webhooks.
// load_out_of_resources) with nothing in etl_rejects and the spool kept, and a later load with room stores
// everything exactly once. Batches are bounded by bytes (REPORTER_WEBHOOKS_LOAD_MAX_BYTES). The memory is
// a budget on the statements' rows (a warehouse wrapper throwing DuckDB's own out-of-memory text).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EtlError } from '../../../src/errors.js';
import { silentLogger } from '../../../src/log.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { SqlStatement, Warehouse } from '../../../src/warehouse/warehouse.js';

const DUCKDB_OOM =
  'Out of Memory Error: failed to allocate data of size 16.0 MiB (241.6 MiB/244.1 MiB used)\n\n' +
  'Possible solutions:\n* Reducing the number of threads (SET threads=X)';

let dir: string;
let warehouse: Warehouse;
let receiver: WebhookReceiver | undefined;
/** The bytes of Chat API rows a statement list may carry before the wrapped warehouse "runs out of memory". */
const budget = { bytes: Number.POSITIVE_INFINITY, error: DUCKDB_OOM };
/** The Chat API rows of every list of statements executed (successful or not). */
let executedEvents: number[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-oom-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
  budget.bytes = Number.POSITIVE_INFINITY;
  budget.error = DUCKDB_OOM;
  executedEvents = [];
});
afterEach(async () => {
  budget.bytes = Number.POSITIVE_INFINITY;
  await receiver?.close().catch(() => undefined);
  receiver = undefined;
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

const rowsOf = (statement: SqlStatement | undefined): string =>
  String((statement?.params as Record<string, unknown> | undefined)?.['rows'] ?? '[]');
const eventsStatement = (statements: readonly SqlStatement[]) =>
  statements.find((s) => s.sql.includes('INSERT INTO chatapi_webhook_events'));

/** The warehouse, whose execute fails as DuckDB does (wrapped as open-warehouse.ts wraps it) over the budget. */
function withMemoryBudget(inner: Warehouse): Warehouse {
  return new Proxy(inner, {
    get(target, property, receiverOfGet) {
      if (property !== 'execute') return Reflect.get(target, property, receiverOfGet);
      return async (statements: readonly SqlStatement[]) => {
        const events = eventsStatement(statements);
        executedEvents.push((JSON.parse(rowsOf(events)) as unknown[]).length);
        // the rows of the payloads run out of memory (a reject of the same record would fit: as on main)
        if (Buffer.byteLength(rowsOf(events)) > budget.bytes) {
          const cause = new Error(budget.error);
          throw new EtlError('warehouse.query_failed', `Warehouse query failed: ${cause.message}`, { cause });
        }
        return target.execute(statements);
      };
    },
  });
}

async function start(loadMaxBytes?: number): Promise<WebhookReceiver> {
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    warehouse: withMemoryBudget(warehouse),
    channels: [],
    timeZone: 'UTC',
    log: silentLogger(),
    loadEveryMs: 60_000,
    ...(loadMaxBytes === undefined ? {} : { loadMaxBytes }),
  });
  return receiver;
}

const chatObject = (questionId: string) => ({
  clientId: 'c-1',
  questionId,
  timestamp: '2026-11-20T09:30:00',
  data: { answer: `${questionId} ${'Ваш заказ в пути. '.repeat(100)}` },
});

async function post(questionId: string): Promise<number> {
  const response = await fetch(`${receiver!.url}/webhooks/chatapi`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([chatObject(questionId)]),
  });
  await response.arrayBuffer();
  return response.status;
}

/** A spool left behind by a receiver of this pid (as after a kill -9 and a restart in a container). */
function writeLeftover(questionIds: readonly string[]): string {
  const spools = join(dir, 'webhooks');
  mkdirSync(spools, { recursive: true });
  const at = Date.parse('2026-11-20T10:00:00Z');
  const path = join(spools, `spool-${at}-${process.pid}.jsonl`);
  const lines = questionIds.map(
    (id, i) => `${JSON.stringify({ route: 'chatapi', receivedAt: at + i, body: [chatObject(id)] })}\n`,
  );
  writeFileSync(path, lines.join(''));
  return path;
}

async function storedIds(): Promise<string[]> {
  const rows = await warehouse.query('select question_id from chatapi_webhook_events order by question_id');
  return rows.map((r) => String(r['question_id']));
}
const rejectCount = async () =>
  Number((await warehouse.query('select count(*) as n from etl_rejects'))[0]?.['n']);
const ids = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);

describe('a load that runs out of memory', () => {
  it('fails with the records of a spool left behind kept, none in etl_rejects; a later load stores each once', async () => {
    const leftover = writeLeftover(ids('left', 6));
    budget.bytes = 100; // less than one record
    await start();
    const failure = await receiver!.loadNow().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EtlError);
    expect((failure as EtlError).code).toBe('webhooks.load_out_of_resources');
    expect((failure as EtlError).message).toMatch(/REPORTER_DUCKDB_MEMORY_LIMIT/);
    expect(await rejectCount()).toBe(0);
    expect(await storedIds()).toEqual([]);
    expect(existsSync(leftover)).toBe(true);

    budget.bytes = Number.POSITIVE_INFINITY;
    await receiver!.loadNow();
    expect(await storedIds()).toEqual(ids('left', 6));
    expect(await rejectCount()).toBe(0);
    expect(existsSync(leftover)).toBe(false);
  });

  it('fails with the acknowledged requests kept, none in etl_rejects; a later load stores each once', async () => {
    await start();
    for (const id of ids('live', 5)) expect(await post(id)).toBe(200);
    budget.bytes = 100;
    await expect(receiver!.loadNow()).rejects.toMatchObject({ code: 'webhooks.load_out_of_resources' });
    expect(await rejectCount()).toBe(0);
    expect(await storedIds()).toEqual([]);

    budget.bytes = Number.POSITIVE_INFINITY;
    await receiver!.loadNow();
    await receiver!.close();
    receiver = undefined;
    expect(await storedIds()).toEqual(ids('live', 5));
    expect(await rejectCount()).toBe(0);
  });

  it('as a full disk: a failure naming the disk, nothing rejected, everything stored once later', async () => {
    const leftover = writeLeftover(ids('left', 3));
    budget.bytes = 100;
    budget.error =
      'TransactionContext Error: Failed to commit: IO Error: Could not write file "warehouse.duckdb.wal": No space left on device';
    await start();
    await expect(receiver!.loadNow()).rejects.toMatchObject({
      code: 'webhooks.load_out_of_resources',
      message: expect.stringMatching(/out of disk.*free space/),
    });
    expect(await rejectCount()).toBe(0);
    expect(existsSync(leftover)).toBe(true);
    budget.bytes = Number.POSITIVE_INFINITY;
    await receiver!.loadNow();
    expect(await storedIds()).toEqual(ids('left', 3));
    expect(await rejectCount()).toBe(0);
  });

  it('is halved until it fits: every record stored, none rejected', async () => {
    const one = Buffer.byteLength(JSON.stringify([chatObject('left-00')]));
    writeLeftover(ids('left', 8));
    await start();
    for (const id of ids('live', 8)) expect(await post(id)).toBe(200);
    budget.bytes = 2 * 3 * one; // a row holds the answer twice (answer, data): a batch of 3 fits, not one of 4
    await receiver!.loadNow();
    expect(await storedIds()).toEqual([...ids('left', 8), ...ids('live', 8)]);
    expect(await rejectCount()).toBe(0);
  });
});

describe('REPORTER_WEBHOOKS_LOAD_MAX_BYTES', () => {
  it('bounds the bytes of one load transaction (a spool left behind and the live one)', async () => {
    const one = Buffer.byteLength(JSON.stringify([chatObject('left-00')]));
    writeLeftover(ids('left', 12));
    await start(3 * one + 500);
    for (const id of ids('live', 12)) expect(await post(id)).toBe(200);
    await receiver!.loadNow();
    expect(await storedIds()).toEqual([...ids('left', 12), ...ids('live', 12)]);
    // 3 spool lines fit in the bound, 4 do not
    expect(Math.max(...executedEvents)).toBe(3);
    expect(executedEvents.reduce((sum, n) => sum + n, 0)).toBe(24);
  });
});
