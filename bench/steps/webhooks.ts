// Step: the webhook receiver under the platform's load: `reporter-etl webhooks` (a child process) gets POST
// /webhooks/chatapi at a steady rate (default 500 a second for 10 s, open loop: a request leaves on time
// whatever the earlier ones do) and each answer's latency is taken; the floor is the same load against a
// bare node:http server that stores nothing. The requests carry the key (REPORTER_WEBHOOK_KEY). Then the same
// load again beside 5,000 slow clients (bench/children/slow-clients.ts: connections on loopback that send a
// partial header and hold it, opened again when dropped). Then SIGTERM: every acknowledged request of both
// loads must be in the warehouse (counted with `reporter-etl sql`).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { CLI, childScript, runChild } from '../run-child.js';

const RATE_PER_SECOND = 500;
const SECONDS = 10;
const SLOW_CONNECTIONS = 5_000;
export const KEY = 'bench-webhook-key-of-the-step';

export interface LoadResult {
  latenciesMs: number[];
  failures: number;
}

/** Starts a server child (`nodeArgs` before its script: a preload) and resolves with the port it prints. */
export function startServer(
  script: string,
  args: string[],
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve({ child, port: JSON.parse(out.split('\n')[0]!).port });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited ${code} before listening`)));
  });
}

export async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

interface SlowClients {
  child: ChildProcess;
  /** Connections open when the load starts. */
  held: number;
  /** Stops them; their counts (see slow-clients.ts). */
  stop(): Promise<{ opened: number; dropped: number; failed: number; heldMean: number }>;
}

/** Opens the slow connections (a child process); resolves once all are open. */
function startSlowClients(port: number): Promise<SlowClients> {
  const child = spawn(
    process.execPath,
    [childScript('slow-clients.js'), String(port), String(SLOW_CONNECTIONS), String(SECONDS + 120)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (let n = out.indexOf('\n'); n >= 0; n = out.indexOf('\n')) {
      const line = out.slice(0, n);
      out = out.slice(n + 1);
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const line = lines.shift();
      if (line !== undefined) return resolve(line);
      waiters.push(resolve);
      child.once('exit', (code) => reject(new Error(`slow-clients exited ${code}`)));
    });
  return nextLine().then((line) => ({
    child,
    held: JSON.parse(line).held,
    stop: () => {
      child.kill('SIGTERM');
      return nextLine().then((summary) => JSON.parse(summary));
    },
  }));
}

/** Sends RATE_PER_SECOND × SECONDS small Chat API bodies on schedule over 64 connections. */
function load(port: number, idPrefix = ''): Promise<LoadResult> {
  return sendOpenLoop(port, {
    count: RATE_PER_SECOND * SECONDS,
    ratePerSecond: RATE_PER_SECOND,
    connections: 64,
    body: (i) =>
      JSON.stringify([
        {
          token: 'bench',
          clientId: `client-${i % 97}`,
          questionId: `bench-${idPrefix}${i}`,
          data: { nlpClass: '/Delivery/Status', confidence: 0.8, answer: 'Ваш заказ в пути', replies: [] },
          timestamp: '2026-11-20T09:30:00.123',
          blockForm: false,
        },
      ]),
  });
}

/**
 * Posts `count` bodies to the receiver's Chat API path on schedule (open loop: each leaves at its time, its
 * latency counted from then when the sender is late, as the platform would wait); the latency of each 200.
 */
export async function sendOpenLoop(
  port: number,
  o: { count: number; ratePerSecond: number; connections: number; body: (i: number) => string },
): Promise<LoadResult> {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: o.connections, pipelining: 1 });
  const latenciesMs: number[] = [];
  let failures = 0;
  const started = performance.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < o.count; i++) {
    const due = started + (i * 1000) / o.ratePerSecond;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    // from the scheduled time when the loop is late (what the platform would wait), never before the send
    const from = Math.min(due, performance.now());
    sends.push(
      pool
        .request({
          path: `/webhooks/chatapi?key=${KEY}`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: o.body(i),
        })
        .then(async (response) => {
          await response.body.dump();
          if (response.statusCode === 200) latenciesMs.push(performance.now() - from);
          else failures++;
        })
        .catch(() => {
          failures++;
        }),
    );
  }
  await Promise.all(sends);
  await pool.close();
  return { latenciesMs: latenciesMs.sort((a, b) => a - b), failures };
}

export const percentile = (sorted: readonly number[], p: number): number | null =>
  sorted.length === 0
    ? null
    : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? null);

export const webhooksStep: BenchStep = {
  id: 'webhooks',
  title: `Webhook receiver at ${RATE_PER_SECOND} requests/s for ${SECONDS} s vs a bare HTTP server, then beside ${SLOW_CONNECTIONS} slow clients`,
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const floorServer = await startServer(childScript('bare-http-server.js'), [], {});
    const floor = await load(floorServer.port).finally(() => stop(floorServer.child));
    const dataDir = join(ctx.dir, 'webhooks');
    mkdirSync(dataDir, { recursive: true });
    const env = { REPORTER_DATA_DIR: dataDir, REPORTER_WEBHOOK_KEY: KEY };
    const receiver = await startServer(CLI, ['webhooks', '--port', '0', '--json'], env);
    const measured = await load(receiver.port);
    const slow = await startSlowClients(receiver.port);
    const beside = await load(receiver.port, 'slow-');
    const slowCounts = await slow.stop();
    const exitCode = await stop(receiver.child);
    const counted = await runChild(
      CLI,
      ['sql', '--format', 'json', 'select count(*) as n from chatapi_webhook_events'],
      {
        env,
        resourcesFile: join(ctx.dir, 'resources-webhooks-sql.json'),
      },
    );
    const stored = counted.exitCode === 0 ? Number(JSON.parse(counted.stdout)[0].n) : null;
    const p99 = percentile(measured.latenciesMs, 99);
    const floorP99 = percentile(floor.latenciesMs, 99);
    const slowP99 = percentile(beside.latenciesMs, 99);
    const acknowledged = measured.latenciesMs.length + beside.latenciesMs.length;
    ctx.say(
      `bench: webhooks p50 ${percentile(measured.latenciesMs, 50)?.toFixed(1)} ms, p99 ${p99?.toFixed(1)} ms (floor p99 ${floorP99?.toFixed(1)} ms); beside ${slow.held} slow connections (${slowCounts.heldMean} held on average, ${slowCounts.dropped} dropped by the receiver) p99 ${slowP99?.toFixed(1)} ms, ${beside.failures} failures; ${stored} of ${acknowledged} stored; receiver exit ${exitCode}`,
    );
    return {
      p50Ms: { value: percentile(measured.latenciesMs, 50), unit: 'ms' },
      p99Ms: { value: p99, unit: 'ms', note: 'target < 50 at 500 requests/s' },
      maxMs: { value: measured.latenciesMs.at(-1) ?? null, unit: 'ms' },
      floorP50Ms: { value: percentile(floor.latenciesMs, 50), unit: 'ms' },
      floorP99Ms: { value: floorP99, unit: 'ms' },
      p99Ratio: { value: p99 !== null && floorP99 ? p99 / floorP99 : null, unit: 'ratio' },
      acknowledged: { value: measured.latenciesMs.length, unit: 'count' },
      failures: { value: measured.failures, unit: 'count', note: 'not 200, or no answer' },
      slowP50Ms: { value: percentile(beside.latenciesMs, 50), unit: 'ms' },
      slowP99Ms: {
        value: slowP99,
        unit: 'ms',
        note: `target < 50 beside ${SLOW_CONNECTIONS} slow connections`,
      },
      slowMaxMs: { value: beside.latenciesMs.at(-1) ?? null, unit: 'ms' },
      slowAcknowledged: { value: beside.latenciesMs.length, unit: 'count' },
      slowFailures: { value: beside.failures, unit: 'count', note: 'not 200, or no answer' },
      slowHeldMean: {
        value: slowCounts.heldMean,
        unit: 'count',
        note: 'slow connections open, sampled every 100 ms',
      },
      slowDropped: { value: slowCounts.dropped, unit: 'count', note: 'slow connections the receiver closed' },
      stored: {
        value: stored,
        unit: 'count',
        note: 'rows after SIGTERM: must equal acknowledged (both loads)',
      },
    };
  },
};
