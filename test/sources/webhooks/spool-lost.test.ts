// A live spool removed or replaced under its receiver (by hand, a cleaner of old files, an older receiver
// that took it by its age): the receiver notices before it answers, never acknowledges into it again, moves
// to a new spool, and copies what the lost one had acknowledged from the file it still has open: every
// request answered 200 is stored once.
import { mkdtempSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { createSpool, SpoolLost } from '../../../src/sources/webhooks/spool.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

let dir: string;
let warehouse: Warehouse;
let receiver: WebhookReceiver;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-lost-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    warehouse,
    channels: [],
    timeZone: 'UTC',
    log: silentLogger(),
    loadEveryMs: 60_000,
  });
});
afterEach(async () => {
  await receiver.close().catch(() => undefined);
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

const spoolDir = () => join(dir, 'webhooks');
const liveSpool = () => readdirSync(spoolDir()).find((n) => n.endsWith('.jsonl'))!;

async function send(from: number, to: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = from; i < to; i++) {
    const response = await fetch(`${receiver.url}/webhooks/chatapi`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ clientId: 'c', questionId: `q-${i}`, timestamp: '2026-11-20T09:30:00' }]),
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  return statuses;
}

async function stored(): Promise<string[]> {
  const rows = await warehouse.query(
    'select question_id, count(*)::int as n from chatapi_webhook_events group by 1 order by 1',
  );
  expect(rows.every((r) => r['n'] === 1)).toBe(true);
  return rows.map((r) => String(r['question_id']));
}

const ids = (to: number) => Array.from({ length: to }, (_, i) => `q-${i}`).sort();

describe('a live spool lost under its receiver', () => {
  it('removed: the next requests go to a new spool, and what it had acknowledged is still stored', async () => {
    expect(new Set(await send(0, 20))).toEqual(new Set([200]));
    const first = liveSpool();
    unlinkSync(join(spoolDir(), first));
    expect(new Set(await send(20, 40))).toEqual(new Set([200]));
    expect(liveSpool()).not.toBe(first);
    await receiver.loadNow();
    expect(await stored()).toEqual(ids(40));
    await receiver.close();
    expect(readdirSync(spoolDir())).toEqual([]);
  });

  it('replaced by another file at its name: nothing is written into that file, nothing lost', async () => {
    expect(new Set(await send(0, 20))).toEqual(new Set([200]));
    const first = liveSpool();
    const planted = join(spoolDir(), 'planted');
    writeFileSync(planted, '');
    renameSync(planted, join(spoolDir(), first));
    expect(new Set(await send(20, 40))).toEqual(new Set([200]));
    // the planted file is not the receiver's: nothing was written into it
    expect(statSync(join(spoolDir(), first)).size).toBe(0);
    await receiver.loadNow();
    expect(await stored()).toEqual(ids(40));
  });
});

describe('a spool', () => {
  it('refuses an append once its file is gone: nothing is acknowledged into it', async () => {
    const spool = await createSpool(join(dir, 'alone'), 1);
    try {
      await spool.append({ route: 'prompter', receivedAt: 1, body: {} });
      expect(spool.size).toBeGreaterThan(0);
      const size = spool.size;
      unlinkSync(spool.path);
      await expect(spool.append({ route: 'prompter', receivedAt: 2, body: {} })).rejects.toBeInstanceOf(
        SpoolLost,
      );
      expect(spool.size).toBe(size);
      expect(spool.checkOwned()).toMatch(/was removed/);
    } finally {
      await spool.close();
      await spool.release();
    }
  });
});
