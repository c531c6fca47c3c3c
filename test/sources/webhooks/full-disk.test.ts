// The webhook receiver on a full disk (a real 64 KB tmpfs for its spool, skipped where mount is not
// permitted): a request it cannot write is answered 503 (the platform sends it again), never 200, and every
// request it did answer 200 is in the warehouse; once the full spool is loaded, a new one takes requests again.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

describe('the webhook receiver on a full disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-full-'));
  const spoolDir = join(dir, 'webhooks');
  let mounted: string | undefined;
  beforeAll(() => {
    mkdirSync(spoolDir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0755', 'tmpfs', spoolDir], {
        stdio: 'pipe',
      });
      mounted = '';
    } catch (error) {
      mounted = `mount -t tmpfs is not permitted here (${String((error as Error).message).split('\n')[0]})`;
    }
  });
  afterAll(() => {
    if (mounted === '') spawnSync('umount', [spoolDir]);
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (warehouse: Warehouse) =>
    startWebhookReceiver({
      host: '127.0.0.1',
      port: 0,
      dataDir: dir,
      warehouse,
      channels: [],
      timeZone: 'UTC',
      log: silentLogger(),
      loadEveryMs: 60_000,
    });
  const send = async (receiver: WebhookReceiver, questionId: string): Promise<number> => {
    const response = await fetch(`${receiver.url}/webhooks/chatapi`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { clientId: 'c', questionId, data: { answer: 'x'.repeat(1000) }, timestamp: '2026-11-20T09:30:00' },
      ]),
    });
    await response.arrayBuffer();
    return response.status;
  };

  it('answers 503 when the spool cannot be written, and loads every request it answered 200', async (ctx) => {
    if (mounted !== '') ctx.skip(mounted);
    const warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
    const receiver = await start(warehouse);
    const accepted: string[] = [];
    const statuses = new Set<number>();
    try {
      for (let i = 0; i < 200; i++) {
        const status = await send(receiver, `q-${i}`);
        statuses.add(status);
        if (status === 200) accepted.push(`q-${i}`);
      }
      expect([...statuses].sort()).toEqual([200, 503]);
      expect(accepted.length).toBeGreaterThan(10);
      await receiver.loadNow();
      const rows = await warehouse.query('select question_id from chatapi_webhook_events');
      expect(rows.map((r) => r['question_id']).sort()).toEqual([...accepted].sort());
    } finally {
      await receiver.close().catch(() => undefined);
      await warehouse.close();
    }
  });

  it('after a failed write, a new spool takes requests again once the full one is loaded', async (ctx) => {
    if (mounted !== '') ctx.skip(mounted);
    const warehouse = await openWarehouse({ path: join(dir, 'warehouse-again.duckdb') });
    const receiver = await start(warehouse);
    const accepted: string[] = [];
    try {
      let next = 0;
      // fill the spool until a write fails; while it is full, every request is refused
      while ((await send(receiver, `q-${next++}`)) === 200) accepted.push(`q-${next - 1}`);
      expect(accepted.length).toBeGreaterThan(10);
      expect(await send(receiver, `q-${next++}`)).toBe(503);
      // the load frees the room: the full spool is loaded and removed, a new one takes the requests
      await receiver.loadNow();
      for (let k = 0; k < 20; k++, next++) {
        expect(await send(receiver, `q-${next}`)).toBe(200);
        accepted.push(`q-${next}`);
      }
      await receiver.loadNow();
      const rows = await warehouse.query(
        'select question_id, count(*)::int as n from chatapi_webhook_events group by 1',
      );
      expect(rows.map((r) => r['question_id']).sort()).toEqual([...accepted].sort());
      expect(rows.every((r) => r['n'] === 1)).toBe(true);
    } finally {
      await receiver.close().catch(() => undefined);
      await warehouse.close();
    }
  });
});
