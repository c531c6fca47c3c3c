// Secrets a hostile server echoes never reach a log, stderr, a table or an error, in any of six encodings (as
// it is, JSON-escaped, URL-encoded, base64, base64url, hex; base64 at the three byte alignments, Basic auth,
// mixes): a Reporter API (a small node:http server) answering every request 400 with REPORTER_TOKEN in each
// form (the sync's log, stderr, etl_runs.error), a ClickHouse server echoing its Basic auth and the password
// (export clickhouse), the webhook receiver keeping rejected bodies that hold REPORTER_WEBHOOK_KEY
// (etl_rejects), a broken REPORTER_CONFIG holding a token and one linked to a shadow-like file (stderr).
// test/helpers/secret-leaks.ts decodes what was written, knowing nothing of src/secrets.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { startWebhookReceiver } from '../../src/sources/webhooks/webhook-receiver.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { runCli } from '../helpers/run-cli.js';
import { echoedForms, leaksOf } from '../helpers/secret-leaks.js';

const TOKEN = 'rpt-Token/with+chars=9f3a1c7e';
const PASSWORD = 'ch-Pa55word/Secret+x';
const WEBHOOK_KEY = 'hook-key-5e2d8a1f9c3b7e04';

let dir: string;
const servers: Server[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'echoed-secrets-'));
});
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
  rmSync(dir, { recursive: true, force: true });
});

/** A server answering every request `status` with `body(request)`; its base URL. */
async function hostileServer(status: number, body: (request: IncomingMessage) => string): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(status, { 'content-type': 'application/json' }).end(body(request));
  });
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Every echoed form of `secret`, named, in one text. */
const allForms = (secret: string, user?: string) =>
  Object.entries(echoedForms(secret, user))
    .map(([name, form]) => `${name}=${form}`)
    .join(' | ');

async function queryColumn(path: string, sql: string): Promise<string[]> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowsJS().map((row) => String(row[0]));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('a server that echoes the secrets', () => {
  it('the Reporter API: REPORTER_TOKEN in no encoding in the log, stderr or etl_runs.error', async () => {
    const base = await hostileServer(400, () =>
      JSON.stringify({ error: 'bad_request', message: `echo: ${allForms(TOKEN)}` }),
    );
    const result = await runCli(['sync', '--json'], {
      REPORTER_BASE_URL: base,
      REPORTER_TOKEN: TOKEN,
      REPORTER_PROJECT: 'shop-bot',
      REPORTER_DATA_DIR: dir,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('echo: raw=***');
    expect(leaksOf(`${result.stdout}\n${result.stderr}`, TOKEN)).toEqual([]);
    const errors = await queryColumn(join(dir, 'warehouse.duckdb'), 'SELECT error FROM etl_runs');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('echo: raw=***');
    expect(leaksOf(errors[0]!, TOKEN)).toEqual([]);
  }, 60_000);

  it('ClickHouse: its Basic auth and the password in no encoding on stderr or in the log', async () => {
    const warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
    await warehouse.close();
    const url = await hostileServer(
      500,
      (request) =>
        `Code: 999. DB::Exception: header ${request.headers.authorization} echo: ${allForms(PASSWORD)}\n`,
    );
    const result = await runCli(['export', 'clickhouse'], {
      REPORTER_DATA_DIR: dir,
      REPORTER_CLICKHOUSE_URL: url,
      REPORTER_CLICKHOUSE_USER: 'default',
      REPORTER_CLICKHOUSE_PASSWORD: PASSWORD,
      REPORTER_RETRIES: '0',
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('header Basic ***');
    expect(leaksOf(`${result.stdout}\n${result.stderr}`, PASSWORD)).toEqual([]);
    expect(leaksOf(`${result.stdout}\n${result.stderr}`, `default:${PASSWORD}`)).toEqual([]);
  }, 60_000);

  it('the webhook receiver: a rejected body holding REPORTER_WEBHOOK_KEY is kept without it, in any encoding', async () => {
    const warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
    const receiver = await startWebhookReceiver({
      host: '127.0.0.1',
      port: 0,
      dataDir: dir,
      warehouse,
      key: WEBHOOK_KEY,
      channels: [],
      timeZone: 'UTC',
      log: silentLogger(),
      loadEveryMs: 60_000,
    });
    try {
      const post = async (body: string) => {
        const response = await fetch(`${receiver.url}/webhooks/prompter?key=${WEBHOOK_KEY}`, {
          method: 'POST',
          body,
        });
        return { status: response.status, body: await response.text() };
      };
      // not JSON, its first characters the key (V8's parse error would quote them); JSON, not a payload
      const notJson = await post(`${WEBHOOK_KEY} ${allForms(WEBHOOK_KEY)}`);
      expect(notJson.status).toBe(400);
      expect(notJson.body).toMatch(/not JSON.*line 1, column 1/);
      expect((await post(JSON.stringify({ echo: allForms(WEBHOOK_KEY) }))).status).toBe(400);
      await receiver.loadNow();
      const rows = await warehouse.query('SELECT raw_json, error FROM etl_rejects');
      expect(rows).toHaveLength(2);
      const stored = rows.map((r) => `${r['raw_json']}\n${r['error']}`).join('\n');
      expect(stored).toContain('basic auth=Basic');
      expect(leaksOf(stored, WEBHOOK_KEY)).toEqual([]);
      expect(leaksOf(notJson.body, WEBHOOK_KEY)).toEqual([]);
    } finally {
      await receiver.close();
      await warehouse.close();
    }
  });
});

describe('a configuration file that is not JSON', () => {
  it('is refused naming the line and column, never quoting the token it holds', async () => {
    const file = join(dir, 'config.json');
    writeFileSync(file, `{"projects": [\n  {"token": ${TOKEN}, "project": "x"}\n]}`);
    const result = await runCli(['sync'], { REPORTER_CONFIG: file, REPORTER_DATA_DIR: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /REPORTER_CONFIG: cannot read .*config\.json as JSON \(not valid JSON at line 2, column 13/,
    );
    expect(leaksOf(result.stderr, TOKEN)).toEqual([]);
    expect(result.stderr).not.toContain('rpt-');
  });

  it('linked to a shadow-like file: not a line of it on stderr', async () => {
    const shadow = join(dir, 'shadow');
    writeFileSync(shadow, 'root:*:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n', { mode: 0o600 });
    symlinkSync(shadow, join(dir, 'config.json'));
    const result = await runCli(['sync'], {
      REPORTER_CONFIG: join(dir, 'config.json'),
      REPORTER_DATA_DIR: dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/line 1, column 1/);
    expect(result.stderr).not.toMatch(/root|daemon|19000/);
  });
});
