// The webhook receiver's door against slow and hostile clients, over raw sockets: a body over the limit is
// refused on its Content-Length before it is sent and a chunked one is read no further than the limit; a
// request without the key is refused before its body is read; a body nested too deep gets 400 in our words;
// a header never finished is dropped at the headers timeout; at the connection cap, the least recently
// active sockets that serve no request make room, so a keyed request still gets in.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { defaultConnectionCap } from '../../../src/sources/webhooks/connection-cap.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
  type WebhookReceiverOptions,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

const KEY = 'a-secret-of-sixteen-chars';
const MiB = 1024 * 1024;
let dir: string;
let warehouse: Warehouse;
let receiver: WebhookReceiver | undefined;
const sockets: Socket[] = [];
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-hostile-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await receiver?.close().catch(() => undefined);
  receiver = undefined;
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: Partial<WebhookReceiverOptions> = {}): Promise<WebhookReceiver> {
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    warehouse,
    key: KEY,
    channels: [],
    timeZone: 'UTC',
    log: silentLogger(),
    loadEveryMs: 60_000,
    ...options,
  });
  return receiver;
}

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    sockets.push(socket);
    socket.once('error', reject);
  });
}

interface Sent {
  /** Body bytes the socket took before the server closed it (or all of them). */
  written: number;
  /** What the server answered (its first bytes), '' when it did not within the time. */
  answer: string;
  /** Whether the server closed the connection within the time. */
  closed: boolean;
}

/** Sends `head`, then up to `bodyBytes` of body (as chunks when `chunked`), until the server closes. */
async function send(head: string, bodyBytes: number, chunked = false, waitMs = 3_000): Promise<Sent> {
  const socket = await open(receiver!.port);
  let answer = '';
  let closed = false;
  socket.setEncoding('latin1').on('data', (d: string) => (answer += d));
  const gone = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined);
  void gone.then(() => (closed = true));
  socket.write(head);
  const piece = Buffer.alloc(64 * 1024, 0x20);
  let written = 0;
  while (written < bodyBytes && !closed && !socket.destroyed) {
    const ok = socket.write(
      chunked ? Buffer.concat([Buffer.from('10000\r\n'), piece, Buffer.from('\r\n')]) : piece,
    );
    written += piece.length;
    if (!ok) await Promise.race([new Promise((r) => socket.once('drain', r)), gone]);
  }
  await Promise.race([gone, new Promise((r) => setTimeout(r, waitMs))]);
  return { written, answer, closed };
}

const post = (path: string, length: number | 'chunked') =>
  `POST ${path} HTTP/1.1\r\nHost: receiver\r\nContent-Type: application/json\r\n${
    length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`
  }\r\n\r\n`;

describe('the webhook receiver against slow and hostile clients', () => {
  it('refuses a body over 1 MiB on its Content-Length, before any of it is sent', async () => {
    await start();
    const sent = await send(post(`/webhooks/chatapi?key=${KEY}`, 300 * MiB), 0, false, 2_000);
    expect(sent.answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('stops reading a chunked body at the limit', async () => {
    await start();
    const sent = await send(post(`/webhooks/chatapi?key=${KEY}`, 'chunked'), 64 * MiB, true);
    expect(sent.answer).toMatch(/^HTTP\/1\.1 413 /);
    // what the socket buffers take besides the limit, far from the 64 MiB sent
    expect(sent.written).toBeLessThan(24 * MiB);
  });

  it('refuses a request without the key before reading its body', async () => {
    await start();
    const sent = await send(post('/webhooks/chatapi', 64 * MiB), 64 * MiB);
    expect(sent.answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(sent.written).toBeLessThan(24 * MiB);
    expect(receiver!.counts.unauthorized).toBe(1);
  });

  it('answers 400 in its own words to a body nested too deep, and counts no bracket inside a string', async () => {
    await start();
    const deep = await fetch(`${receiver!.url}/webhooks/chatapi?key=${KEY}`, {
      method: 'POST',
      body: `${'['.repeat(6000)}${']'.repeat(6000)}`,
    });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { message: string }).message).toBe(
      'the body nests arrays and objects deeper than 64 levels',
    );
    const brackets = await fetch(`${receiver!.url}/webhooks/chatapi?key=${KEY}`, {
      method: 'POST',
      body: JSON.stringify([
        {
          clientId: 'c',
          questionId: 'q-1',
          data: { answer: `"\\${'[{'.repeat(3000)}` },
          timestamp: '2026-11-20T09:30:00',
        },
      ]),
    });
    expect(brackets.status).toBe(200);
  });

  it('drops a connection whose header is not finished within the headers timeout', async () => {
    await start({ limits: { headersTimeoutMs: 200 } });
    const sent = await send('POST /webhooks/chatapi HTTP/1.1\r\nHost: rec', 0, false, 3_000);
    expect(sent).toMatchObject({ answer: '', closed: true });
  });

  it('at the connection cap, the least recently active sockets without a request make room for a keyed one', async () => {
    const r = await start({ maxConnections: 40 });
    const slow: Socket[] = [];
    for (let i = 0; i < 60; i++) {
      const socket = await open(r.port);
      socket.on('error', () => undefined);
      socket.write('POST /webhooks/chatapi HTTP/1.1\r\nHost: rec');
      slow.push(socket);
    }
    const response = await fetch(`${r.url}/webhooks/chatapi?key=${KEY}`, {
      method: 'POST',
      body: JSON.stringify([
        { clientId: 'c', questionId: 'q-1', data: {}, timestamp: '2026-11-20T09:30:00' },
      ]),
    });
    expect(response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const open_ = slow.map((s) => !s.destroyed && s.readyState === 'open');
    // 61 connections against 40: the 21 oldest slow ones were dropped, the newest kept
    expect(open_.slice(0, 20)).toEqual(Array(20).fill(false));
    expect(open_.slice(-19)).toEqual(Array(19).fill(true));
  });
});

describe('the connection cap', () => {
  it('is half the open-file limit, at most 10,000, and 1,000 where the limit cannot be read', () => {
    const limits = (soft: string) => {
      const file = join(dir, `limits-${soft}`);
      writeFileSync(
        file,
        `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                 524288               files\n`,
      );
      return file;
    };
    expect(defaultConnectionCap(limits('1024'))).toBe(512);
    expect(defaultConnectionCap(limits('1048576'))).toBe(10_000);
    expect(defaultConnectionCap(join(dir, 'none'))).toBe(1_000);
  });
});
