// Step: the webhook receiver's peak RSS on large bodies (issue 30, item 7): 2,000 POST /webhooks/chatapi of
// about 50 KB each (bench/large-webhook-bodies.ts, ~100 MB of JSON), sent at 200 a second (open loop, 16
// connections) to `reporter-etl webhooks` loading them as they come, then SIGTERM; the peak RSS is the
// child's own (the preloaded report-resources writes it at exit, so the load at the stop counts). Then a
// restart's load: the same bodies spooled by a receiver that never loads (REPORTER_WEBHOOKS_LOAD_SECONDS
// 3600) and is killed (SIGKILL), and a new receiver that loads them all and stops: its peak RSS. The floor:
// a bare DuckDB process (children/insert-large-json.ts) storing the same rows in the same batches. And the
// cost of one checkpoint as the table grows: 20 rows added to 100, and to 2,000, stored (checkpoint-large-rows).
// Last, bodies near the 1 MiB limit (issue 43): 300 of about 1 MB, 16 in flight, then SIGTERM: latency, peak
// RSS, and whether the load at the stop stores them all within DuckDB's memory limit.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOKS_LOAD_MAX_BYTES } from '../../src/config.js';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { LARGE_BODY_COUNT, largeWebhookBody } from '../large-webhook-bodies.js';
import { CLI, childScript, RESOURCES_PRELOAD, runChild } from '../run-child.js';
import { KEY, type LoadResult, percentile, sendOpenLoop, startServer, stop } from './webhooks.js';

const RATE_PER_SECOND = 200;
/** The phase of issue 43: bodies near the 1 MiB limit, at most 16 in flight, as fast as they are answered. */
const MB_BODY_COUNT = 300;
const MB_BODY_BYTES = 960_000;
const MB_IN_FLIGHT = 16;

/** Sends MB_BODY_COUNT bodies of about 1 MB, MB_IN_FLIGHT at a time (closed loop); each 200's latency. */
async function sendMegabyteBodies(port: number): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  let failures = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: MB_IN_FLIGHT }, async () => {
      for (let i = next++; i < MB_BODY_COUNT; i = next++) {
        const body = largeWebhookBody(i, 'bench', MB_BODY_BYTES);
        const sent = performance.now();
        try {
          const response = await fetch(`http://127.0.0.1:${port}/webhooks/chatapi?key=${KEY}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          await response.arrayBuffer();
          if (response.status === 200) latenciesMs.push(performance.now() - sent);
          else failures++;
        } catch {
          failures++;
        }
      }
    }),
  );
  return { latenciesMs: latenciesMs.sort((a, b) => a - b), failures };
}

/** Sends the large bodies on schedule over 16 connections; the latency of each 200. */
function sendLargeBodies(port: number): Promise<LoadResult> {
  return sendOpenLoop(port, {
    count: LARGE_BODY_COUNT,
    ratePerSecond: RATE_PER_SECOND,
    connections: 16,
    body: (i) => largeWebhookBody(i, 'bench'),
  });
}

interface ReceiverRun {
  sent: LoadResult | undefined;
  /** The exit code, or the signal that ended it. */
  exitCode: string;
  peakRssMb: number | null;
  /** The peaks of V8's heap and of node's memory outside it (buffers), sampled: the JavaScript part. */
  peakHeapMb: number | null;
  peakExternalMb: number | null;
}

/** A receiver with the resources preload: `work` against its port, then SIGTERM; its peak RSS. */
async function measuredReceiver(
  ctx: BenchContext,
  env: Record<string, string>,
  work: (port: number) => Promise<LoadResult | undefined>,
): Promise<ReceiverRun> {
  const resourcesFile = join(ctx.dir, `resources-webhooks-large-${Date.now()}.json`);
  const receiver = await startServer(
    CLI,
    ['webhooks', '--port', '0', '--json'],
    { ...env, BENCH_RESOURCES_FILE: resourcesFile },
    ['--import', RESOURCES_PRELOAD],
  );
  const sent = await work(receiver.port);
  const exited = new Promise<string>((resolve) =>
    receiver.child.once('exit', (code, signal) => resolve(signal ?? String(code))),
  );
  await stop(receiver.child);
  const exitCode = await exited;
  try {
    const usage = JSON.parse(readFileSync(resourcesFile, 'utf8'));
    const mb = (bytes: number) => bytes / 1e6;
    return {
      sent,
      exitCode,
      peakRssMb: mb(usage.maxRSS * 1024),
      peakHeapMb: mb(usage.peakHeapTotal),
      peakExternalMb: mb(usage.peakExternal),
    };
  } catch {
    // the child died before writing it: null, and its exit code says why
    return { sent, exitCode, peakRssMb: null, peakHeapMb: null, peakExternalMb: null };
  }
}

/** Spools the bodies in a receiver that never loads, then kills it: the spool is left for the next start. */
async function leaveSpoolBehind(env: Record<string, string>): Promise<LoadResult> {
  const receiver = await startServer(CLI, ['webhooks', '--port', '0', '--json'], {
    ...env,
    REPORTER_WEBHOOKS_LOAD_SECONDS: '3600',
  });
  const sent = await sendLargeBodies(receiver.port);
  const exited = new Promise((resolve) => receiver.child.once('exit', resolve));
  receiver.child.kill('SIGKILL');
  await exited;
  return sent;
}

/** Waits until the spools of earlier receivers in `dataDir` are loaded and removed (its own is left). */
async function leftoversLoaded(dataDir: string): Promise<undefined> {
  const deadline = Date.now() + 300_000;
  // spool files (each has its claim's socket beside it: spool-….sock)
  const spools = () =>
    readdirSync(join(dataDir, 'webhooks')).filter((name) => /^spool-.*\.jsonl$/.test(name));
  while (spools().length > 1) {
    if (Date.now() > deadline)
      throw new Error('the restarted receiver did not load the spool left behind in 300 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

async function countRows(ctx: BenchContext, env: Record<string, string>): Promise<number | null> {
  const counted = await runChild(
    CLI,
    ['sql', '--format', 'json', 'select count(*) as n from chatapi_webhook_events'],
    {
      env,
      resourcesFile: join(ctx.dir, 'resources-webhooks-large-sql.json'),
    },
  );
  return counted.exitCode === 0 ? Number(JSON.parse(counted.stdout)[0].n) : null;
}

/** Rows stored before the checkpoint probe's 20 more: a few, and as many as the step sends. */
const PROBE_ROWS = [100, LARGE_BODY_COUNT] as const;

/**
 * The peak RSS of a bare DuckDB process adding 20 large rows (1 MB) and checkpointing, to a table that holds
 * `rows` large rows already (children/checkpoint-large-rows): what a checkpoint costs as the table grows.
 */
async function checkpointProbe(ctx: BenchContext, rows: number): Promise<number> {
  const target = join(ctx.dir, `checkpoint-probe-${rows}.duckdb`);
  const script = childScript('checkpoint-large-rows.js');
  const resourcesFile = join(ctx.dir, `resources-checkpoint-probe-${rows}.json`);
  const filled = await runChild(script, [target, 'fill', String(rows)], { resourcesFile });
  if (filled.exitCode !== 0) throw new Error(`checkpoint-large-rows fill failed: ${filled.stderr}`);
  const probed = await runChild(script, [target, 'append'], { resourcesFile });
  if (probed.exitCode !== 0) throw new Error(`checkpoint-large-rows append failed: ${probed.stderr}`);
  return probed.maxRssMb;
}

function receiverEnv(ctx: BenchContext, name: string): Record<string, string> {
  const dataDir = join(ctx.dir, name);
  mkdirSync(dataDir, { recursive: true });
  return { REPORTER_DATA_DIR: dataDir, REPORTER_WEBHOOK_KEY: KEY };
}

export const webhooksLargeStep: BenchStep = {
  id: 'webhooks-large',
  title: `Webhook receiver's peak RSS on ${LARGE_BODY_COUNT} bodies of 50 KB (live and a restart's load) vs bare DuckDB`,
  needs: [],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const floor = await runChild(
      childScript('insert-large-json.js'),
      [join(ctx.dir, 'large-floor.duckdb'), String(WEBHOOKS_LOAD_MAX_BYTES)],
      { resourcesFile: join(ctx.dir, 'resources-large-floor.json') },
    );
    if (floor.exitCode !== 0) throw new Error(`insert-large-json failed: ${floor.stderr}`);
    const [probeFew, probeMany] = [
      await checkpointProbe(ctx, PROBE_ROWS[0]),
      await checkpointProbe(ctx, PROBE_ROWS[1]),
    ];
    const liveEnv = receiverEnv(ctx, 'webhooks-large-live');
    const live = await measuredReceiver(ctx, liveEnv, sendLargeBodies);
    const liveStored = await countRows(ctx, liveEnv);
    const restartEnv = receiverEnv(ctx, 'webhooks-large-restart');
    const spooled = await leaveSpoolBehind(restartEnv);
    // SIGTERM once the leftovers are loaded: the load at the start is what is measured
    const restart = await measuredReceiver(ctx, restartEnv, () =>
      leftoversLoaded(restartEnv.REPORTER_DATA_DIR!),
    );
    const restartStored = await countRows(ctx, restartEnv);
    const mbEnv = receiverEnv(ctx, 'webhooks-large-megabyte');
    const mb = await measuredReceiver(ctx, mbEnv, sendMegabyteBodies);
    const mbStored = await countRows(ctx, mbEnv);
    const mbLatencies = mb.sent?.latenciesMs ?? [];
    ctx.say(
      `bench: webhooks-large ${MB_BODY_COUNT} bodies of ~1 MB, ${MB_IN_FLIGHT} in flight: p50 ${percentile(mbLatencies, 50)?.toFixed(0)} ms, p99 ${percentile(mbLatencies, 99)?.toFixed(0)} ms, peak RSS ${mb.peakRssMb?.toFixed(0)} MB, ${mbStored} of ${mbLatencies.length} stored, exit ${mb.exitCode}`,
    );
    const latencies = live.sent?.latenciesMs ?? [];
    const ratio = (v: number | null) => (v === null || floor.maxRssMb === 0 ? null : v / floor.maxRssMb);
    ctx.say(
      `bench: webhooks-large peak RSS live ${live.peakRssMb?.toFixed(0)} MB (heap ${live.peakHeapMb?.toFixed(0)} MB, external ${live.peakExternalMb?.toFixed(0)} MB; ${liveStored} of ${latencies.length} stored, exit ${live.exitCode}), restart ${restart.peakRssMb?.toFixed(0)} MB (heap ${restart.peakHeapMb?.toFixed(0)} MB; ${restartStored} of ${spooled.latenciesMs.length} stored, exit ${restart.exitCode}), bare DuckDB ${floor.maxRssMb.toFixed(0)} MB; a checkpoint of 20 more rows after ${PROBE_ROWS[0]} / ${PROBE_ROWS[1]} ${probeFew.toFixed(0)} / ${probeMany.toFixed(0)} MB; live p99 ${percentile(latencies, 99)?.toFixed(1)} ms`,
    );
    return {
      livePeakRssMb: {
        value: live.peakRssMb,
        unit: 'MB',
        note: 'target < 400: the receiver loading as they come',
      },
      restartPeakRssMb: {
        value: restart.peakRssMb,
        unit: 'MB',
        note: 'target < 400: loading a spool left behind',
      },
      floorPeakRssMb: {
        value: floor.maxRssMb,
        unit: 'MB',
        note: 'bare DuckDB storing the same rows, same batches',
      },
      checkpointAfterFewPeakRssMb: {
        value: probeFew,
        unit: 'MB',
        note: `bare DuckDB: 20 large rows and a CHECKPOINT, ${PROBE_ROWS[0]} stored before`,
      },
      checkpointAfterManyPeakRssMb: {
        value: probeMany,
        unit: 'MB',
        note: `the same, ${PROBE_ROWS[1]} stored before (the last row group is rewritten whole)`,
      },
      livePeakRssRatio: { value: ratio(live.peakRssMb), unit: 'ratio' },
      restartPeakRssRatio: { value: ratio(restart.peakRssMb), unit: 'ratio' },
      livePeakHeapMb: { value: live.peakHeapMb, unit: 'MB', note: "V8's heap, sampled every 100 ms" },
      livePeakExternalMb: {
        value: live.peakExternalMb,
        unit: 'MB',
        note: 'buffers outside the heap, sampled',
      },
      restartPeakHeapMb: { value: restart.peakHeapMb, unit: 'MB', note: "V8's heap, sampled every 100 ms" },
      liveP50Ms: { value: percentile(latencies, 50), unit: 'ms' },
      liveP99Ms: { value: percentile(latencies, 99), unit: 'ms' },
      liveFailures: { value: live.sent?.failures ?? null, unit: 'count', note: 'not 200, or no answer' },
      liveStored: { value: liveStored, unit: 'count', note: 'must equal the 200s' },
      restartStored: { value: restartStored, unit: 'count', note: 'must equal the 200s before the kill' },
      megabyteP50Ms: {
        value: percentile(mbLatencies, 50),
        unit: 'ms',
        note: `${MB_BODY_COUNT} bodies of ~1 MB`,
      },
      megabyteP99Ms: { value: percentile(mbLatencies, 99), unit: 'ms', note: 'the platform waits 3 s' },
      megabytePeakRssMb: {
        value: mb.peakRssMb,
        unit: 'MB',
        note: 'the receiver, the load at its stop included',
      },
      megabyteStored: { value: mbStored, unit: 'count', note: `must equal the 200s (exit ${mb.exitCode})` },
    };
  },
};
