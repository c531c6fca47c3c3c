// A rejected Chat API body keeps no form of a channel token (issue 30, item 5): a JSON producer may escape any
// character of the member name or of the token (`{"\u0074oken":"emuchat1\u003a1a1ee6…"}`), percent-encode it,
// or send a body that is not JSON at all; etl_rejects (the body and the reason) holds the token in no form,
// configured or not, and the rest of the body as it was sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from '../../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

const HEX = '1a1ee6'.padEnd(40, '7c');
const UNKNOWN = `emuchat1:${HEX}`;
const CONFIGURED = 'site-token_with-no-platform-form';
let dir: string;
let warehouse: Warehouse;
let receiver: WebhookReceiver | undefined;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-escaped-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
  receiver = await startWebhookReceiver({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir,
    warehouse,
    channels: [{ name: 'site', token: CONFIGURED }],
    timeZone: 'UTC',
    log: silentLogger(),
    loadEveryMs: 60_000,
  });
});
afterEach(async () => {
  await receiver?.close().catch(() => undefined);
  receiver = undefined;
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(body: string): Promise<number> {
  const response = await fetch(`${receiver!.url}/webhooks/chatapi`, { method: 'POST', body });
  await response.arrayBuffer();
  return response.status;
}

/** Every `every`-th character as a \\uXXXX escape (hex in the given case), the others as they are. */
const escapeEvery = (text: string, every: number, hexCase: 'lower' | 'upper' = 'lower'): string =>
  [...text]
    .map((c, i) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
      return i % every === 0 ? `\\u${hexCase === 'upper' ? hex.toUpperCase() : hex}` : c;
    })
    .join('');

/** The forms a token may take in a stored text: none may be found. */
function formsOf(token: string): string[] {
  const hexPart = token.slice(token.indexOf(':') + 1);
  return [
    token,
    hexPart,
    escapeEvery(token, 1),
    escapeEvery(token, 3),
    escapeEvery(token, 3, 'upper'),
    encodeURIComponent(token),
  ];
}

describe('a rejected Chat API body', () => {
  it('keeps no form of the token, escaped, percent-encoded or cut, in raw_json or the reason', async () => {
    const bodies = [
      // the body: the member name and the token's colon escaped
      `{"\\u0074oken":"emuchat1\\u003a${HEX}"}`,
      // every third character escaped, upper-case hex, under another member name
      `[{"clientId":"c","questionId":"q-1","t\\u006Fken":"${escapeEvery(UNKNOWN, 3, 'upper')}"}]`,
      // a configured token that has not the platform's form, fully escaped, and percent-encoded in a URL
      `[{"questionId":"q-2","token":"${escapeEvery(CONFIGURED, 1)}","url":"https://x/${encodeURIComponent(CONFIGURED)}"}]`,
      // not JSON: V8's parse error would quote the token's first characters
      `${UNKNOWN}`,
      `[${CONFIGURED}]`,
      `{"a": 1, "bb": ${UNKNOWN}}`,
    ];
    for (const body of bodies) expect(await post(body), body).toBe(400);

    await receiver!.loadNow();
    const rejects = await warehouse.query('select raw_json, error from etl_rejects order by rejected_at');
    expect(rejects).toHaveLength(bodies.length);
    const stored = JSON.stringify(rejects);
    const texts = rejects.flatMap((r) => [String(r['raw_json']), String(r['error'])]);
    for (const token of [UNKNOWN, CONFIGURED])
      for (const form of formsOf(token)) {
        expect(stored).not.toContain(form);
        for (const text of texts) expect(text).not.toContain(form);
      }
    // the reason quotes no part of the body
    for (const reason of rejects.map((r) => String(r['error'])))
      for (const fragment of ['emuchat1', 'site-token']) expect(reason).not.toContain(fragment);
    // the rest of the body is kept as it was sent
    expect(rejects[0]?.['raw_json']).toBe('{"\\u0074oken":"[redacted]"}');
    expect(rejects[2]?.['raw_json']).toBe(
      '[{"questionId":"q-2","token":"[redacted]","url":"https://x/[redacted]"}]',
    );
  });

  it('is searched in linear time, and a token across the 64 KiB cut is not kept in part', async () => {
    // a megabyte of backslashes: every position starts an escape; a quadratic search would take hours
    expect(await post('\\'.repeat(1024 * 1024 - 16))).toBe(400);
    // the token starts 5 characters before the cut: what is kept ends with the start of [redacted]
    const cut = 64 * 1024 - 5;
    expect(await post(`["${'x'.repeat(cut - 2)}${escapeEvery(UNKNOWN, 2)}"]`)).toBe(400);
    await receiver!.loadNow();
    const rows = await warehouse.query('select raw_json from etl_rejects order by rejected_at');
    expect(rows).toHaveLength(2);
    const kept = String(rows[1]?.['raw_json']);
    expect(kept).toBe(`["${'x'.repeat(cut - 2)}[reda`);
  });
});
