// The transport's first contact, per interface: a request that cannot connect before the server has answered
// anything fails fast, naming the setting its base URL came from (REPORTER_CONFIG projects[n].baseUrl, the
// Chat API's, Pushgate's, ClickHouse's); once the server has answered, the full retry policy applies.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createClickHouse } from '../../../src/destinations/clickhouse/clickhouse-http.js';
import { sendNotification } from '../../../src/destinations/pushgate/send-notification.js';
import { silentLogger } from '../../../src/log.js';
import { createChatApiClient } from '../../../src/platform/chatapi/chatapi-client.js';
import { reporterHttpOptions } from '../../../src/platform/reporter/http-options.js';
import { ReporterHttp } from '../../../src/platform/reporter/reporter-http.js';

const servers: Server[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function closedPortUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as Error & { code?: string; kind?: string },
  );

describe('first contact', () => {
  it('after a first answer, a refused connection gets the full retry policy, as before', async () => {
    let answered = 0;
    const { server, url } = await listen((_req, res) => {
      answered++;
      res.setHeader('connection', 'close');
      res.end('{"ok":true}');
    });
    const http = new ReporterHttp({ baseUrl: url, token: 't', api: 'v1', retries: 4, backoffBaseMs: 1 });
    expect(await http.json({ method: 'GET', op: 'projects' })).toEqual({ ok: true });
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    const error = await fail(http.json({ method: 'GET', op: 'projects' }));
    await http.close();
    expect(answered).toBe(1);
    expect(error).toMatchObject({ code: 'reporter.unavailable', kind: 'transient' });
    expect(error.message).toMatch(/failed after 5 attempts: .*connection failed \(ECONNREFUSED\)/);
    expect(http.requests).toBe(1 + 5);
  });

  it('a project of REPORTER_CONFIG: names projects[n].baseUrl of the file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'first-contact-'));
    const closed = await closedPortUrl();
    const file = join(dir, 'projects.json');
    writeFileSync(
      file,
      JSON.stringify({
        projects: [
          { token: 'token-aaaaaaaa', project: 'one' },
          { token: 'token-bbbbbbbb', baseUrl: closed },
        ],
      }),
    );
    const config = loadConfig({ REPORTER_CONFIG: file });
    const http = new ReporterHttp({ ...reporterHttpOptions(config, config.projects[1]!), backoffBaseMs: 1 });
    const error = await fail(http.json({ method: 'GET', op: 'projects' }));
    await http.close();
    expect(error).toMatchObject({ code: 'reporter.unreachable', kind: 'transient' });
    expect(error.message).toContain(
      `nothing answers at REPORTER_CONFIG projects[1].baseUrl ${closed}: is the address right, is the server running?`,
    );
    expect(http.requests).toBe(2);
  });

  it('the Chat API: names REPORTER_CHATAPI_BASE_URL, never the channel token', async () => {
    const closed = await closedPortUrl();
    const config = loadConfig(
      { REPORTER_CHATAPI_BASE_URL: closed, REPORTER_CHATAPI_CHANNELS: 'web=SECRET-CHANNEL-TOKEN' },
      { requireToken: false },
    );
    const client = createChatApiClient({
      config: config.chatApi,
      channel: config.chatApi.channels[0]!,
      backoffBaseMs: 1,
    });
    const error = await fail(client.events(0));
    await client.close();
    expect(error).toMatchObject({ code: 'reporter.unreachable', kind: 'transient' });
    expect(error.message).toContain(`nothing answers at REPORTER_CHATAPI_BASE_URL ${closed}:`);
    expect(error.message).not.toContain('SECRET-CHANNEL-TOKEN');
  });

  it('a Pushgate notification: names REPORTER_PUSHGATE_URL by its base, never the pushback id', async () => {
    const closed = await closedPortUrl();
    const config = loadConfig(
      { REPORTER_TOKEN: 'token-0123456789', REPORTER_PUSHGATE_URL: `${closed}/pushgate/push_SECRETPUSHBACK` },
      {},
    );
    const started = Date.now();
    const outcome = await sendNotification(config, { eventId: 'e1' } as never, silentLogger(), {
      backoffBaseMs: 1,
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(outcome).toContain(
      `failed: nothing answers at REPORTER_PUSHGATE_URL ${closed}: is the address right, is the server running?`,
    );
    expect(outcome).not.toContain('SECRETPUSHBACK');
  });

  it('ClickHouse: https to a plain HTTP server is worded, without OpenSSL’s text', async () => {
    const { url } = await listen((_req, res) => res.end('1'));
    const https = url.replace('http:', 'https:');
    const clickhouse = createClickHouse({ url: https, user: 'u', password: 'p', database: 'd' });
    const error = await fail(clickhouse.run('SELECT 1'));
    await clickhouse.close();
    expect(error).toMatchObject({ code: 'clickhouse.unavailable', kind: 'transient' });
    expect(error.message).toContain(
      `REPORTER_CLICKHOUSE_URL says https but the server at ${https.replace('https://', '')} answers plain HTTP`,
    );
    expect(error.message).not.toMatch(/SSL routines|wrong version number/);
  });
});
