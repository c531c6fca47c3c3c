// One question's answer for `kb eval`, by either path: asynchronous (POST /async/query, then
// GET /query/{id}?waitTimeSeconds=, a long poll that returns once the answer is ready, until --timeout; never
// more than one status call a second, even with --wait-time 0) or
// streamed (SSE, a stream cut before its done event tried once more, then kb.stream_cut). Never throws: every
// outcome is a `Generated` to record; a refused key (kb.auth) is also reported to `onRefused`.
import type { EtlError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { KbClient } from '../../platform/kb/kb-client.js';
import { KB_FINAL_QUERY_STATUSES, type KbQueryRecord } from '../../platform/kb/kb-schemas.js';
import type { KbStreamer } from '../../platform/kb/kb-stream.js';

/** A cut stream is tried this many more times before the question is recorded as kb.stream_cut. */
export const STREAM_RETRIES = 1;

/**
 * The status of one generation is never asked more often than this (ms): with --wait-time 0, or a service that
 * answers a long poll at once, the next status call waits out the rest of the second.
 */
export const MIN_STATUS_INTERVAL_MS = 1000;

export interface Generated {
  record?: KbQueryRecord;
  status: 'answered' | 'failed' | 'error';
  answer: string | null;
  statusRequests: number;
  /** Generations started (2 when a cut stream was tried again). */
  attempts: number;
  /** From submitting the generation to its final record (ms); null when it never ended. */
  latencyMs: number | null;
  errorCode: string | null;
  error: string | null;
}

export interface GenerationContext {
  client: KbClient;
  now: () => number;
  /** How long a generation may take before it is recorded as kb.timeout (ms). */
  timeoutMs: number;
  /** The long poll of each status call (0..30 s). */
  waitTimeSeconds: number;
  log: Logger;
  /** Called with the question's seq when the service refuses the key. */
  onRefused: (seq: number, error: unknown) => void;
  /** Waits between two status calls (default setTimeout); tests may pass their own. */
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An error's stable code (`error` when it has none) and message. */
export function describeError(error: unknown): { code: string; message: string } {
  const code = (error as Partial<EtlError>).code;
  return {
    code: typeof code === 'string' ? code : 'error',
    message: (error as Error)?.message ?? String(error),
  };
}

/** READY_TO_PROCESS and PROCESSING: the generation is still going (any other value is final). */
function isPending(status: string): boolean {
  return status === 'READY_TO_PROCESS' || status === 'PROCESSING';
}

function fresh(attempts: number): Generated {
  return {
    status: 'error',
    answer: null,
    statusRequests: 0,
    attempts,
    latencyMs: null,
    errorCode: null,
    error: null,
  };
}

function failWith(ctx: GenerationContext, out: Generated, seq: number, error: unknown): Generated {
  const { code, message } = describeError(error);
  if (code === 'kb.auth') ctx.onRefused(seq, error);
  out.errorCode = code;
  out.error = message;
  return out;
}

/** The final record's outcome: FINISHED is an answer; FAILED, CANCELED and any other final value are not. */
function settle(out: Generated, record: KbQueryRecord, streamedText?: string): Generated {
  out.record = record;
  if (record.status === 'FINISHED') {
    out.status = 'answered';
    out.answer = record.response ?? streamedText ?? '';
    return out;
  }
  out.status = 'failed';
  out.answer = record.response ?? null;
  out.errorCode = KB_FINAL_QUERY_STATUSES.includes(record.status)
    ? 'kb.generation_failed'
    : 'kb.unknown_status';
  out.error = `the generation (query ${record.id}) ended ${record.status}${record.comment ? `: ${record.comment}` : ''}`;
  return out;
}

/** POST /async/query, then long-polled status calls until the record leaves the pending states or --timeout. */
export async function generateAsync(ctx: GenerationContext, query: string, seq: number): Promise<Generated> {
  const out = fresh(1);
  const submitted = ctx.now();
  try {
    let record = await ctx.client.generateAsync({ query });
    const deadline = submitted + ctx.timeoutMs;
    let lastStatusCall: number | undefined;
    while (isPending(record.status)) {
      // never faster than one status call a second (--wait-time 0, or a service that answers at once)
      if (lastStatusCall !== undefined) {
        const wait = Math.min(lastStatusCall + MIN_STATUS_INTERVAL_MS, deadline) - ctx.now();
        if (wait > 0) await (ctx.sleep ?? sleepFor)(wait);
      }
      const left = deadline - ctx.now();
      if (left <= 0) {
        out.record = record;
        out.errorCode = 'kb.timeout';
        out.error = `the generation (query ${record.id}) was still ${record.status} after ${Math.round(ctx.timeoutMs / 1000)} s (--timeout)`;
        return out;
      }
      out.statusRequests++;
      lastStatusCall = ctx.now();
      record = await ctx.client.queryStatus(
        record.id,
        Math.max(0, Math.min(ctx.waitTimeSeconds, Math.ceil(left / 1000))),
      );
    }
    out.latencyMs = ctx.now() - submitted;
    return settle(out, record);
  } catch (error) {
    return failWith(ctx, out, seq, error);
  }
}

/** POST /query/stream read as SSE; a stream cut before done or error is tried STREAM_RETRIES more times. */
export async function generateStreamed(
  ctx: GenerationContext,
  streamer: KbStreamer,
  query: string,
  seq: number,
): Promise<Generated> {
  const out = fresh(0);
  const cuts: string[] = [];
  for (let attempt = 0; attempt <= STREAM_RETRIES; attempt++) {
    out.attempts++;
    const submitted = ctx.now();
    try {
      const result = await streamer.stream({ query });
      if (result.cut) {
        cuts.push(result.cut.reason);
        ctx.log.warn({ seq, attempt: attempt + 1, reason: result.cut.reason }, 'kb eval: stream cut');
        continue;
      }
      out.latencyMs = ctx.now() - submitted;
      if (result.error) {
        out.status = 'failed';
        out.errorCode = result.error.code;
        out.error = `the stream ended with an error event: ${result.error.code} ${result.error.description}`;
        return out;
      }
      return settle(out, result.done!, result.text);
    } catch (error) {
      return failWith(ctx, out, seq, error);
    }
  }
  out.errorCode = 'kb.stream_cut';
  out.error = `the stream was cut before its done event, ${cuts.length === 1 ? 'once' : `${cuts.length} times`} (${cuts.join('; ')})`;
  return out;
}
