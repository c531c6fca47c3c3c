// A write whose 2xx answer cannot be read is done: every write path against a tiny server answering 200 with
// `not json`, or 200 with a Content-Length longer than the body and then closing, receives it exactly once,
// and gets (or records) it as sent with the unreadable answer noted. A read with such an answer is asked again.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { sendNotification } from '../../../src/destinations/pushgate/send-notification.js';
import { silentLogger } from '../../../src/log.js';
import { createPrompterClient } from '../../../src/platform/prompter/prompter-client.js';
import { pushToPushgate } from '../../../src/platform/pushgate/pushgate-client.js';
import { blockClient, filterClients, unblockClient } from '../../../src/platform/reporter/clients.js';
import {
  createExperiment,
  deleteExperiment,
  stopExperiment,
} from '../../../src/platform/reporter/experiments.js';
import { bulkLabelMessages, bulkLabelSessions } from '../../../src/platform/reporter/label-assignments.js';
import {
  createMessageLabel,
  createSessionLabel,
  deleteLabelGroup,
  deleteMessageLabel,
  deleteSessionLabel,
  updateLabelGroup,
  updateMessageLabel,
  updateSessionLabel,
} from '../../../src/platform/reporter/labels.js';
import { ReporterHttp } from '../../../src/platform/reporter/reporter-http.js';
import { ReportApi } from '../../../src/platform-reports/report-api.js';
import { askPrompter } from '../../../src/sources/prompter/ask-prompter.js';
import type { SqlStatement } from '../../../src/warehouse/warehouse.js';

type Mode = 'not json' | 'cut short';
const MODES: Mode[] = ['not json', 'cut short'];
const PUSHBACK = 'SECRETPUSHBACK0123';

let server: Server;
let base: string;
let mode: Mode = 'not json';
let received = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    received++;
    req.resume();
    if (mode === 'not json') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('not json');
      return;
    }
    // the headers and a piece of the body, then the connection closes
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"questionId":"q');
    setTimeout(() => res.destroy(), 10);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  received = 0;
});

const reporter = (retries = 3) =>
  new ReporterHttp({ baseUrl: base, token: 'token-1', api: 'v1', retries, backoffBaseMs: 1 });

/** Runs `write` on a fresh client: the server must get exactly one request. */
async function once<T>(write: (http: ReporterHttp) => Promise<T>): Promise<T> {
  const http = reporter();
  try {
    return await write(http);
  } finally {
    await http.close();
    expect(received).toBe(1);
    received = 0;
  }
}

describe.each(MODES)('a 2xx answer that is %s', (m) => {
  beforeEach(() => {
    mode = m;
  });

  it('a read (GET, or a POST marked read) is asked again', async () => {
    const http = reporter(2);
    await expect(http.json({ method: 'GET', op: 'projects' })).rejects.toMatchObject({
      code: 'reporter.unavailable',
    });
    await expect(filterClients(http, [])).rejects.toMatchObject({ code: 'reporter.unavailable' });
    await http.close();
    expect(received).toBe(2 * 3);
  });

  it('a Pushgate push is sent once and comes back done, the answer noted, without the pushback id', async () => {
    const pushed = await pushToPushgate({ baseUrl: base, retries: 3, backoffBaseMs: 1 }, PUSHBACK, {
      eventId: 'e1',
    });
    expect(received).toBe(1);
    expect(pushed.unreadable).toMatch(
      m === 'not json'
        ? /was done \(200\) but its answer was a body that is not JSON .*; it was not sent again/
        : /was done \(200\) but its answer was cut short .*; it was not sent again/,
    );
    expect(pushed.unreadable).not.toContain(PUSHBACK);
  });

  it('a run notification is recorded sent, with the note', async () => {
    const config = loadConfig(
      { REPORTER_TOKEN: 'token-0123456789', REPORTER_PUSHGATE_URL: `${base}/pushgate/push_${PUSHBACK}` },
      {},
    );
    const outcome = await sendNotification(config, { eventId: 'e2' } as never, silentLogger(), {
      backoffBaseMs: 1,
    });
    expect(received).toBe(1);
    expect(outcome).toMatch(/^sent: .*was done \(200\) but its answer was .*not sent again/);
    expect(outcome).not.toContain(PUSHBACK);
  });

  it('a Prompter question is asked once and recorded sent with the note, not waited for', async () => {
    const client = createPrompterClient({
      config: { channels: [], baseUrl: base, path: '/chatapi', timeZone: 'UTC' },
      channel: { name: 'site', token: 'channel-token' },
      retries: 3,
      backoffBaseMs: 1,
    });
    const recorded: SqlStatement[] = [];
    const warehouse = {
      execute: async (statements: SqlStatement[]) => void recorded.push(...statements),
      query: async () => [],
    };
    const summary = await askPrompter({
      client,
      useWarehouse: (fn) => fn(warehouse as never),
      questions: [{ text: 'Привет' }],
      batchId: 'b-1',
      source: 'test',
      clientId: 'agent-1',
      waitMs: 60_000,
      pollMs: 10,
      log: silentLogger(),
    });
    await client.close();
    expect(received).toBe(1);
    expect(summary).toMatchObject({ sent: 1, failed: 0, unreadable: 1 });
    const insert = recorded.find((s) => s.sql.includes('INSERT INTO prompter_requests'))!;
    expect(insert.params).toMatchObject({ outcome: 'sent', question_id: null });
    expect(String((insert.params as Record<string, unknown>)['reason'])).toMatch(
      /was done \(200\) but its answer was .*not sent again/,
    );
  });

  it('bulk labeling is sent once and comes back done with the note', async () => {
    const bulk = { comparisonType: 'CONTAINS' as const, labels: [1], objectIds: ['s1'] };
    expect((await once((http) => bulkLabelSessions(http, bulk))).unreadable).toMatch(/not sent again/);
    expect((await once((http) => bulkLabelMessages(http, bulk))).unreadable).toMatch(/not sent again/);
  });

  it('a create (label, experiment) is sent once; its error says it was created', async () => {
    const created =
      /was done \(200\) .*: it was created, but its id is unknown; look it up with `(labels|experiments) list`/;
    await expect(once((http) => createSessionLabel(http, { name: 'x', priority: 1 }))).rejects.toThrow(
      created,
    );
    await expect(
      once((http) => createMessageLabel(http, { name: 'x', priority: 1, group: { name: 'g' } })),
    ).rejects.toThrow(created);
    await expect(once((http) => createExperiment(http, { key: 'k', branches: [] }))).rejects.toThrow(created);
  });

  it('label, experiment and client changes are sent once and resolve', async () => {
    await once((http) => updateSessionLabel(http, 1, { name: 'x', priority: 1 }));
    await once((http) => deleteSessionLabel(http, 1));
    await once((http) => updateMessageLabel(http, 1, { name: 'x', groupId: 1, priority: 1 }));
    await once((http) => deleteMessageLabel(http, 1));
    await once((http) => updateLabelGroup(http, 1, { name: 'x', priority: 1 }));
    await once((http) => deleteLabelGroup(http, 1));
    await once((http) => deleteExperiment(http, 'k'));
    await once((http) => stopExperiment(http, 'k'));
    await once((http) => blockClient(http, { clientId: 'c', botId: 'b', blockedBy: 1 }));
    await once((http) => unblockClient(http, { clientId: 'c', botId: 'b' }));
  });

  it('a platform report task: its create and deletes are sent once', async () => {
    await once(async (http) => {
      const api = new ReportApi(http, http);
      await api.create('sessions', { query: {} }).catch(() => undefined);
    });
    await once((http) => new ReportApi(http, http).deleteTask('t1'));
    await once((http) => new ReportApi(http, http).deleteCompleted());
    await once((http) => new ReportApi(http, http).deleteAll());
  });
});
