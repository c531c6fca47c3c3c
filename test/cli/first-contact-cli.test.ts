// A wrong address, as a user meets it: the CLI as a child process against a closed port, against a plain
// HTTP server with https://, and with a URL without a scheme. The first request of a run that cannot connect
// fails fast (two tries, under 5 s, exit 75) with a message naming the setting and the address and saying what
// to check, never OpenSSL's raw text; a scheme-less URL names its setting once.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string | undefined;
let server: Server | undefined;
afterEach(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

function env(baseUrl: string): Record<string, string> {
  dir = mkdtempSync(join(tmpdir(), 'first-contact-'));
  return { REPORTER_BASE_URL: baseUrl, REPORTER_TOKEN: 'token-0123456789', REPORTER_DATA_DIR: dir };
}

/** A port nothing listens on: taken from the system, then let go. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** A plain HTTP server counting the requests it gets (an https:// client sends it a TLS hello instead). */
async function plainServer(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  server = createServer((_req, res) => res.end('{}'));
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, connections: () => connections };
}

describe('the first request of a run cannot connect', () => {
  it('a closed port: exit 75 in under 5 s, naming REPORTER_BASE_URL and the address', async () => {
    const port = await closedPort();
    const started = Date.now();
    const r = await runCli(['sync'], env(`http://127.0.0.1:${port}`));
    const took = Date.now() - started;
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).toContain(
      `nothing answers at REPORTER_BASE_URL http://127.0.0.1:${port}: is the address right, is the server running?`,
    );
    expect(took).toBeLessThan(5000);
  }, 60_000);

  it('https:// to a plain HTTP server: says so, without OpenSSL’s text', async () => {
    const { port, connections } = await plainServer();
    const started = Date.now();
    const r = await runCli(['sync'], env(`https://127.0.0.1:${port}`));
    expect(r.code, r.stderr).toBe(75);
    expect(r.stderr).toContain(
      `REPORTER_BASE_URL says https but the server at 127.0.0.1:${port} answers plain HTTP`,
    );
    expect(r.stderr).not.toMatch(/SSL routines|wrong version number|0A00010B/);
    expect(connections()).toBeLessThanOrEqual(2);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 60_000);

  it('a URL without a scheme names its setting once, and says what to add', async () => {
    const r = await runCli(['sync'], env('app.jaicp.com'));
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.match(/REPORTER_BASE_URL/g)).toHaveLength(1);
    expect(r.stderr).toContain('REPORTER_BASE_URL: expected an absolute http or https URL');
    expect(r.stderr).toContain('https://');
  });
});
