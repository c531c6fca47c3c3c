// What the receiver keeps on disk, beyond its rows: the channel token appears in no spool line and in no
// rejected body (a malformed Chat API payload still carries it), whatever the token (configured or not,
// cut off by a body that is not whole); and a spool left by a receiver that is gone is loaded at the next
// start, also when the dead receiver had this process's pid (a container restarts its process with the
// same pid) or when its pid now belongs to an unrelated process; a live neighbour's spool is left alone,
// however long untouched. Resends within one batch keep the first delivery.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { readProcessStat } from '../../../src/process/process-identity.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

const CONFIGURED = `AbCd1234:${'c3'.repeat(20)}`;
const UNKNOWN = `ZyXw9876:${'5e'.repeat(20)}`;
const UUID_TOKEN = '0f3c2a1e-9b7d-4c55-8e21-6a0b4d9c7f13';
let dir: string;
let warehouse: Warehouse;
let receiver: WebhookReceiver | undefined;
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-disk-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
});
afterEach(async () => {
  await receiver?.close().catch(() => undefined);
  receiver = undefined;
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(loadEveryMs = 60_000): Promise<WebhookReceiver> {
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    warehouse,
    channels: [{ name: 'site', token: CONFIGURED }],
    timeZone: 'UTC',
    log: silentLogger(),
    loadEveryMs,
  });
  return receiver;
}

async function post(path: string, body: unknown): Promise<number> {
  const response = await fetch(`${receiver!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

const chatObject = (questionId: string, token: string, answer = 'yes') => ({
  token,
  clientId: 'client-1',
  questionId,
  data: { nlpClass: '/Yes', confidence: 0.5, answer, replies: [] },
  timestamp: '2026-11-20T09:30:00.123',
  blockForm: false,
});

/** Every byte the receiver's data directory holds in spool files now, as text. */
function spoolText(): string {
  const spools = join(dir, 'webhooks');
  return readdirSync(spools)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => readFileSync(join(spools, name), 'utf8'))
    .join('\n');
}

/** A spool line as a receiver writes it: one Chat API payload of one object, received at `receivedAt`. */
function spoolLine(questionId: string, receivedAt: number): string {
  const { token: _token, ...object } = chatObject(questionId, CONFIGURED);
  return `${JSON.stringify({ route: 'chatapi', receivedAt, body: [object] })}\n`;
}

/** Writes a spool file of another (dead or live) older receiver (no socket), last modified `ageMs` ago. */
function writeForeignSpool(
  pid: number,
  questionIds: readonly string[],
  ageMs: number,
  startTicks?: number,
): string {
  const spools = join(dir, 'webhooks');
  mkdirSync(spools, { recursive: true });
  const name = `spool-${Date.now() - ageMs}-${pid}${startTicks === undefined ? '' : `-${startTicks}`}.jsonl`;
  const path = join(spools, name);
  writeFileSync(path, questionIds.map((q, i) => spoolLine(q, Date.now() - ageMs + i)).join(''));
  const seconds = (Date.now() - ageMs) / 1000;
  utimesSync(path, seconds, seconds);
  return name;
}

async function storedIds(): Promise<string[]> {
  const rows = await warehouse.query('select question_id from chatapi_webhook_events order by 1');
  return rows.map((r) => String(r['question_id']));
}

describe('the channel token on disk', () => {
  it('is in no spool line and in no rejected body, and the rest of a rejected body is kept as sent', async () => {
    await start();
    // accepted: a configured token, an unknown one, a UUID
    expect(await post('/webhooks/chatapi', [chatObject('q-1', CONFIGURED)])).toBe(200);
    expect(await post('/webhooks/chatapi', [chatObject('q-2', UNKNOWN), chatObject('q-3', UUID_TOKEN)])).toBe(
      200,
    );
    // rejected: a wrong shape (no clientId) with each token, and a body cut off inside the token's value
    const noClient = (token: string) => {
      const { clientId: _c, ...rest } = chatObject('q-bad', token);
      return [rest];
    };
    expect(await post('/webhooks/chatapi', noClient(CONFIGURED))).toBe(400);
    expect(await post('/webhooks/chatapi', noClient(UNKNOWN))).toBe(400);
    expect(await post('/webhooks/chatapi', noClient(UUID_TOKEN))).toBe(400);
    const cut = `[{"clientId":"c","questionId":"q-cut","token": "${UNKNOWN.slice(0, 20)}`;
    expect(await post('/webhooks/chatapi', cut)).toBe(400);

    const onDisk = spoolText();
    for (const token of [CONFIGURED, UNKNOWN, UUID_TOKEN, UNKNOWN.slice(0, 20)])
      expect(onDisk).not.toContain(token);

    await receiver!.loadNow();
    const rejects = await warehouse.query('select raw_json, error from etl_rejects order by rejected_at');
    expect(rejects).toHaveLength(4);
    const everything = JSON.stringify([
      ...rejects,
      ...(await warehouse.query('select * from chatapi_webhook_events')),
    ]);
    for (const token of [CONFIGURED, UNKNOWN, UUID_TOKEN, UNKNOWN.slice(0, 20)])
      expect(everything).not.toContain(token);
    // the rest of the body is as it was sent: the token's value alone is replaced
    const sent = JSON.stringify(noClient(UNKNOWN));
    expect(rejects[1]?.['raw_json']).toBe(sent.replace(UNKNOWN, '[redacted]'));
    expect(rejects[3]?.['raw_json']).toBe('[{"clientId":"c","questionId":"q-cut","token": "[redacted]');
    // the accepted rows still know the configured channel by its name
    expect(
      await warehouse.query('select question_id, channel from chatapi_webhook_events order by 1'),
    ).toEqual([
      { question_id: 'q-1', channel: 'site' },
      { question_id: 'q-2', channel: null },
      { question_id: 'q-3', channel: null },
    ]);
  });
});

describe('spools left behind', () => {
  it('loads the spool of a dead receiver that had this process’s pid', async () => {
    const name = writeForeignSpool(process.pid, ['q-old-1', 'q-old-2'], 5_000);
    await start();
    await receiver!.loadNow();
    expect(await storedIds()).toEqual(['q-old-1', 'q-old-2']);
    expect(readdirSync(join(dir, 'webhooks'))).not.toContain(name);
  });

  it('loads a spool whose pid belongs to another process now, and leaves a live neighbour’s alone, however old', async () => {
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(other);
    await once(other, 'spawn');
    const ticks = readProcessStat(other.pid!)!.startTicks;
    const stale = writeForeignSpool(other.pid!, ['q-stale'], 0, ticks - 1);
    const fresh = writeForeignSpool(other.pid!, ['q-fresh'], 10 * 60_000, ticks);
    await start();
    await receiver!.loadNow();
    expect(await storedIds()).toEqual(['q-stale']);
    const left = readdirSync(join(dir, 'webhooks'));
    expect(left).not.toContain(stale);
    expect(left).toContain(fresh);
    // the neighbour dies while this receiver runs: its spool is loaded by a later batch
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
    await receiver!.loadNow();
    expect(await storedIds()).toEqual(['q-fresh', 'q-stale']);
    expect(readdirSync(join(dir, 'webhooks'))).not.toContain(fresh);
  });
});

describe('resends in one batch', () => {
  it('keep the first delivery', async () => {
    await start();
    for (const answer of ['first', 'second', 'third'])
      expect(await post('/webhooks/chatapi', [chatObject('q-1', CONFIGURED, answer)])).toBe(200);
    await receiver!.loadNow();
    expect(await warehouse.query('select answer from chatapi_webhook_events')).toEqual([{ answer: 'first' }]);
  });
});
