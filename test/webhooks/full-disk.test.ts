// The webhook receiver on a full disk (a real 64 KB tmpfs for its spool, skipped where mount is not
// permitted): a request it cannot write is answered 503 (the platform sends it again), never 200, and every
// request it did answer 200 is in the warehouse.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { startWebhookReceiver } from '../../src/webhooks/webhook-receiver.js';

describe('the webhook receiver on a full disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webhooks-full-'));
  const spoolDir = join(dir, 'webhooks');
  let mounted: string | undefined;
  beforeAll(() => {
    mkdirSync(spoolDir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', spoolDir], { stdio: 'pipe' });
      mounted = '';
    } catch (error) {
      mounted = `mount -t tmpfs is not permitted here (${String((error as Error).message).split('\n')[0]})`;
    }
  });
  afterAll(() => {
    if (mounted === '') spawnSync('umount', [spoolDir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 when the spool cannot be written, and loads every request it answered 200', async (ctx) => {
    if (mounted !== '') ctx.skip(mounted);
    const warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
    const receiver = await startWebhookReceiver({
      host: '127.0.0.1',
      port: 0,
      dataDir: dir,
      warehouse,
      channels: [],
      timeZone: 'UTC',
      log: silentLogger(),
      loadEveryMs: 60_000,
    });
    const accepted: string[] = [];
    const statuses = new Set<number>();
    try {
      for (let i = 0; i < 200; i++) {
        const questionId = `q-${i}`;
        const response = await fetch(`${receiver.url}/webhooks/chatapi`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify([
            {
              clientId: 'c',
              questionId,
              data: { answer: 'x'.repeat(1000) },
              timestamp: '2026-11-20T09:30:00',
            },
          ]),
        });
        statuses.add(response.status);
        if (response.status === 200) accepted.push(questionId);
        await response.arrayBuffer();
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
});
