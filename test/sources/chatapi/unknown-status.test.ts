// A Chat API message status the client does not know (the emulator's `newStatus`: a share of the bot and agent
// answers end in QUEUED): the history sync keeps it as given, stores every message (no rejects), counts it per
// value under `chatapi.status` in its summary and its etl_runs row, and warns once. Compared with the
// emulator's Chat API truth.
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { defaultChatApiToken } from '../../../src/emulator/chatapi/channels.js';
import { chatChannelTruth } from '../../../src/emulator/chatapi/chat-truth.js';
import {
  type ChatApiHistorySummary,
  syncChatApiHistory,
} from '../../../src/sources/chatapi/sync-chatapi-history.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const TOKEN = defaultChatApiToken('shop-bot');
const NEW_STATUS = 'QUEUED';

let h: Harness;
let summary: ChatApiHistorySummary;
const logLines: Record<string, unknown>[] = [];

beforeAll(async () => {
  h = await createHarness({
    emulator: { sessions: 600, days: 1, newStatus: { status: NEW_STATUS, share: 0.2 } },
    env: { REPORTER_CHATAPI_CHANNELS: `site=${TOKEN}`, REPORTER_HISTORY_DAYS: '2' },
  });
  expect((await h.sync()).status).toBe('success');
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim() !== '') logLines.push(JSON.parse(line));
      done();
    },
  });
  const config = loadConfig(h.env);
  [summary] = (await h.withWarehouse((warehouse) =>
    syncChatApiHistory({
      config,
      warehouse,
      log: pino({ level: 'warn' }, sink),
      now: () => h.running.emulator.now(),
      backoffBaseMs: 5,
    }),
  )) as [ChatApiHistorySummary];
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** The truth's messages of the synced range in NEW_STATUS. */
function truthCount(): number {
  const from = Date.parse(summary.from!);
  const to = Date.parse(summary.to!);
  const truth = chatChannelTruth(h.running.emulator, TOKEN, { from, to });
  let n = 0;
  for (const client of truth.clients)
    for (const m of client.messages) {
      const t = Date.parse(m.timestamp);
      if (t >= from && t < to && m.status === NEW_STATUS) n++;
    }
  return n;
}

describe('a Chat API status the client does not know', () => {
  it('ends the history sync as a success and stores the value as given', async () => {
    expect(summary).toMatchObject({ channel: 'site', status: 'success', exitCode: 0, rejects: 0 });
    const total = truthCount();
    expect(total).toBeGreaterThan(5);
    const [stored] = await h.withWarehouse((w) =>
      w.query("select count(*) as n from chatapi_messages where channel = 'site' and status = $1", [
        NEW_STATUS,
      ]),
    );
    expect(Number(stored!['n'])).toBe(total);
  });

  it('counts it per value in the summary and the run record, and warns once', async () => {
    const expected = { 'chatapi.status': { [NEW_STATUS]: truthCount() } };
    expect(summary.unknownValues).toEqual(expected);
    const [run] = await h.withWarehouse((w) =>
      w.query('SELECT CAST(unknown_values AS VARCHAR) AS v FROM etl_runs WHERE run_id = $1', [summary.runId]),
    );
    expect(JSON.parse(String(run!['v']))).toEqual(expected);
    const warnings = logLines.filter((l) => l['field'] === 'chatapi.status' && l['value'] === NEW_STATUS);
    expect(warnings).toHaveLength(1);
  });
});
