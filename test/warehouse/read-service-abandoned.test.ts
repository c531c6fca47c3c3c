// A served read ends when its reader goes (issue 43, item 6): a reader process sends a runaway query over
// the read socket of a real `sync` child and is killed mid-query; the query is interrupted, and the sync
// exits within 5 s of its last request to the platform (it waited for the query for ever before, or
// REPORTER_LOCK_WAIT_SECONDS and then for ever).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

let h: Harness | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(20);
  }
}

/** A reader process that sends `sql` over the writer's read socket and says when it has sent it. */
function startReader(warehousePath: string, sql: string): ChildProcess {
  const client = resolve('dist/src/warehouse/read-service-client.js');
  const script = join(h!.dir, 'reader.mjs');
  writeFileSync(
    script,
    `import { connectToReadService } from ${JSON.stringify(client)};
const client = await connectToReadService(process.argv[2]);
if (!client) { console.log('no service'); process.exit(3); }
const answer = client.read({ op: 'query', sql: process.argv[3] });
console.log('sent');
await answer;
console.log('answered');
`,
  );
  const child = spawn(process.execPath, [script, warehousePath, sql], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return child;
}

describe('a served read whose reader goes', () => {
  it('is interrupted: the sync exits within 5 s of its end', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 200 },
      env: { REPORTER_LOCK_WAIT_SECONDS: '60' },
    });
    const e = h.running.emulator;
    // slow answers: the sync holds the file (and serves reads) for a few seconds
    e.faults.script({ type: 'slow', delayMs: 300, times: 100_000 });
    const sync = spawn(process.execPath, ['bin/reporter-etl.js', 'sync'], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...h.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    children.push(sync);
    let syncErr = '';
    sync.stderr?.on('data', (d) => (syncErr += d));
    const exitedAt = new Promise<number>((done) => sync.once('exit', () => done(Date.now())));
    let lastRequestAt = Date.now();
    let requests = e.requestCount;
    const watch = setInterval(() => {
      if (e.requestCount !== requests) [requests, lastRequestAt] = [e.requestCount, Date.now()];
    }, 20);
    try {
      const socket = `${h.config.warehousePath}.readers.sock`;
      await waitFor(() => existsSync(socket), 30_000);
      // a query that runs for hours: every pair of ten million numbers
      const reader = startReader(
        h.config.warehousePath,
        'select sum(a.range * b.range) as s from range(10000000) a, range(10000000) b',
      );
      let said = '';
      reader.stdout?.on('data', (d) => (said += d));
      await waitFor(() => said.includes('sent') || said.includes('no service'), 15_000);
      expect(said).toContain('sent');
      await sleep(500);
      reader.kill('SIGKILL');
      e.faults.clear();
      const exitAt = await Promise.race([exitedAt, sleep(45_000).then(() => Number.NaN)]);
      expect(exitAt, `the sync did not exit: ${syncErr}`).not.toBeNaN();
      expect(sync.exitCode, syncErr).toBe(0);
      if (process.env['TRACE_TEST'])
        console.log(`exited ${exitAt - lastRequestAt} ms after its last request`);
      expect(exitAt - lastRequestAt).toBeLessThan(5_000);
    } finally {
      clearInterval(watch);
    }
  }, 120_000);
});
