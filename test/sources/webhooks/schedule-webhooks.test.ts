// `reporter-etl schedule` with REPORTER_WEBHOOKS_PORT: the receiver runs beside the jobs, and a stop loads
// what it acknowledged.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../../bench/clickhouse-server.js';
import { runCli } from '../../helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'schedule-webhooks-'));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('schedule with REPORTER_WEBHOOKS_PORT', () => {
  it('receives webhooks beside the jobs and loads them when stopped', async () => {
    const port = await freePort();
    const env = { REPORTER_DATA_DIR: dir, REPORTER_JOBS: 'retention', REPORTER_WEBHOOKS_PORT: String(port) };
    const child = spawn(process.execPath, ['bin/reporter-etl.js', 'schedule', '--no-catch-up'], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout?.on('data', (d) => {
          out += d;
          if (out.includes('receiving webhooks on')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`schedule exited ${code}`)));
      });
      const response = await fetch(`http://127.0.0.1:${port}/webhooks/prompter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          clientInfo: { id: 'c' },
          chatId: 'chat',
          questionId: 'q-1',
          answerOptions: [],
        }),
      });
      expect(response.status).toBe(200);
      child.kill('SIGTERM');
      expect(await new Promise((r) => child.once('exit', r))).toBe(0);
      const rows = await runCli(
        ['sql', '--format', 'json', 'select question_id, options from prompter_answers'],
        env,
      );
      expect(rows.code, rows.stderr).toBe(0);
      expect(JSON.parse(rows.stdout)).toEqual([{ question_id: 'q-1', options: 0 }]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
