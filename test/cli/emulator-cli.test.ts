// `reporter-etl emulator` on a port another server holds: a clean usage error that names the port and
// suggests --port, exit 2, instead of an EADDRINUSE stack; `--json` prints the knowledge base's base URL
// and keys, and they work; the remote behaviour (--latency-ms, --rate-limit-rps) and the report files' shape
// (--report-header, --report-csv, ...) are checked and reported.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KB_ADMIN_KEY, DEFAULT_KB_PROJECT_KEY } from '../../src/emulator/kb/kb-options.js';
import { KB_COVERED_TOPICS } from '../../src/emulator/kb/kb-topic-answers.js';
import { runCli } from '../helpers/run-cli.js';

describe('reporter-etl emulator', () => {
  it('names a taken port and suggests --port, exit 2', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve, reject) => {
      holder.once('error', reject);
      holder.listen(0, '127.0.0.1', () => resolve());
    });
    const port = (holder.address() as { port: number }).port;
    try {
      const r = await runCli(
        ['emulator', '--port', String(port), '--host', '127.0.0.1', '--sessions', '100'],
        {},
      );
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`port ${port} is already in use`);
      expect(r.stderr).toMatch(/--port 0/);
      expect(r.stderr).not.toMatch(/EADDRINUSE|\n\s+at /);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 90_000);

  it('refuses a Chat API token of another form, naming the form, exit 2', async () => {
    const r = await runCli(['emulator', '--port', '0', '--chatapi-token', 'not-a-token'], {});
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--chatapi-token expects <8 alphanumerics>:<40 hex>');
  }, 90_000);

  it('--json prints the knowledge base base URL and keys, and the project key reaches its project', async () => {
    const child = spawn(
      process.execPath,
      [
        resolve('bin/reporter-etl.js'),
        'emulator',
        '--port',
        '0',
        '--json',
        '--sessions',
        '50',
        '--kb-sources',
        '40',
        '--latency-ms',
        '30',
        '--rate-limit-rps',
        '50',
        '--report-header',
        'ru',
        '--report-csv',
        'refused',
        '--report-csv-delimiter',
        ';',
      ],
      {
        env: { ...process.env, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const line = await new Promise<string>((done, fail) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (out.includes('\n')) done(out.slice(0, out.indexOf('\n')));
        });
        child.once('exit', (code) => fail(new Error(`the emulator exited ${code} before printing`)));
      });
      const summary = JSON.parse(line);
      expect(summary.kb).toEqual({
        baseUrl: `${summary.url}/kb`,
        projectId: expect.any(Number),
        projectKey: DEFAULT_KB_PROJECT_KEY,
        adminKey: DEFAULT_KB_ADMIN_KEY,
      });
      const info = await fetch(`${summary.kb.baseUrl}/api/knowledge-hub/info`, {
        headers: { authorization: `Bearer ${summary.kb.projectKey}` },
      });
      expect(info.status).toBe(200);
      expect(((await info.json()) as { id: number }).id).toBe(summary.kb.projectId);
      const truth = (await (await fetch(`${summary.url}/__emulator/kb/truth`)).json()) as {
        sources: unknown[];
      };
      // 40 generated sources and the FAQ answers to some of the unhandled questions' topics
      expect(truth.sources.length).toBe(40 + KB_COVERED_TOPICS.length);
      // a remote platform: 30 ms away, 50 requests/s, as the control endpoint says too
      expect(summary).toMatchObject({ latencyMs: 30, rateLimitPerSecond: 50 });
      const remote = await (await fetch(`${summary.url}/__emulator/remote`)).json();
      expect(remote).toEqual({ latencyMs: 30, rateLimitRps: 50 });
      // the report files' shape: Russian header names, XLSX only
      const shape = {
        header: 'ru',
        csv: 'refused',
        csvDelimiter: ';',
        columnOrder: 'api',
        extraColumns: false,
      };
      expect(summary.reportShape).toMatchObject(shape);
      expect(await (await fetch(`${summary.url}/__emulator/report-shape`)).json()).toMatchObject(shape);
    } finally {
      child.kill('SIGTERM');
    }
  }, 90_000);

  it('refuses a latency beyond a minute, and the rate limit given under both its names, exit 2', async () => {
    const far = await runCli(['emulator', '--port', '0', '--latency-ms', '70000'], {});
    expect(far.code, far.stderr).toBe(2);
    expect(far.stderr).toContain('--latency-ms expects a whole number from 0 to 60000');
    const twice = await runCli(['emulator', '--port', '0', '--rate-limit', '5', '--rate-limit-rps', '5'], {});
    expect(twice.code, twice.stderr).toBe(2);
    expect(twice.stderr).toContain('--rate-limit-rps and --rate-limit are the same option');
    const header = await runCli(['emulator', '--port', '0', '--report-header', 'fr'], {});
    expect(header.code, header.stderr).toBe(2);
    expect(header.stderr).toContain('--report-header expects one of api, display, ru, got "fr"');
  }, 90_000);

  it('refuses --kb-sources outside 40..200, exit 2', async () => {
    const r = await runCli(['emulator', '--port', '0', '--kb-sources', '500'], {});
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--kb-sources expects 40..200 sources');
  }, 90_000);
});
