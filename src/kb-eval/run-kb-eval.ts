// `kb eval`'s work: asks the knowledge base each question (`concurrency` at a time): retrieval (the chunks, their
// sources, scores and ranks), then the answer (generate-answer.ts: async with long-polled status, or SSE). Each
// question is stored with its chunks as soon as it settles, the run row first (`running`) and finished with its
// figures last, so a stopped or failed run keeps every question it had done. A refused key (kb.auth: expired or
// revoked during the run) stops the asking: the questions not yet asked are recorded as failed with the reason.
// While running, the run's heartbeat is refreshed (a lease, src/warehouse/lease.ts): a run started later closes
// a `running` run whose heartbeat went stale (its process killed outright) as `abandoned`.
import type { KbClient } from '../kb/kb-client.js';
import { kbIdForJson } from '../kb/kb-json.js';
import type { KbChunk, KbId, KbQueryRecord } from '../kb/kb-schemas.js';
import type { KbStreamer } from '../kb/kb-stream.js';
import type { Logger } from '../log.js';
import { type LeaseTiming, leaseTiming, startHeartbeat } from '../warehouse/lease.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { findUnknownExpectedSources } from './find-unknown-expected-sources.js';
import {
  describeError,
  type Generated,
  generateAsync,
  generateStreamed,
  STREAM_RETRIES,
} from './generate-answer.js';
import {
  answerContainsAll,
  computeKbEvalMetrics,
  findHitRank,
  type KbEvalMetrics,
  type QuestionOutcome,
  type RankedChunk,
} from './kb-eval-metrics.js';
import {
  beatKbEvalRun,
  closeAbandonedKbEvalRuns,
  finishKbEvalRun,
  insertKbEvalQuestion,
  insertKbEvalRun,
  type KbEvalChunkRow,
  type KbEvalQuestionRow,
  type KbEvalRunStatus,
} from './kb-eval-sql.js';
import { questionSetFingerprint } from './question-set-fingerprint.js';
import type { KbEvalQuestion } from './read-eval-questions.js';

export type UseKbEvalWarehouse = <T>(fn: (warehouse: Warehouse) => Promise<T>) => Promise<T>;

export interface RunKbEvalOptions {
  client: KbClient;
  /** Given: each answer is generated through the SSE stream (mode `stream`); else async + long poll. */
  streamer?: KbStreamer;
  useWarehouse: UseKbEvalWarehouse;
  questions: readonly KbEvalQuestion[];
  runId: string;
  /** REPORTER_KB_BASE_URL, recorded with the run (never a key). */
  kbBaseUrl: string;
  /** The file's name, or `sql`. */
  questionSource: string;
  questionQuery?: string;
  concurrency: number;
  /** The long poll of each status call (0..30 s). */
  waitTimeSeconds: number;
  /** How long a generation may take before the question is recorded as kb.timeout (ms). */
  timeoutMs: number;
  /** Stops asking (the questions not asked are recorded as not asked); the run is finished all the same. */
  signal?: AbortSignal;
  onQuestion?: (progress: { done: number; total: number; failed: number; row: KbEvalQuestionRow }) => void;
  /** Told the expected sources that no source of the latest kb sync snapshot has, before the first question. */
  onUnknownExpectedSources?: (unknown: string[], snapshotId: string) => void;
  log: Logger;
  now?: () => number;
  /** The run's heartbeat (default LEASE: a beat every 10 s, stale after 30 s); tests pass shorter ones. */
  lease?: Partial<LeaseTiming>;
}

export interface KbEvalSummary {
  runId: string;
  status: KbEvalRunStatus;
  /** The question set's fingerprint (kb_eval_runs.question_set): runs are compared within one set. */
  questionSet: string;
  /** The knowledge base project; an id beyond 2^53 as the string of its digits (kb-json.ts). */
  projectId: number | string | null;
  projectName: string | null;
  mode: 'async' | 'stream';
  metrics: KbEvalMetrics;
  requests: number;
  statusRequests: number;
  durationMs: number;
  /** Why the run stopped early (a refused key, a signal); null when every question was asked. */
  error: string | null;
  /**
   * Expected sources (ids or names) that are no source of the project's latest kb sync snapshot (they can
   * only be misses); null when there is no snapshot (or nothing expected) to compare with.
   */
  unknownExpectedSources: string[] | null;
}

function chunkRows(
  chunks: readonly KbChunk[],
  expected: readonly string[],
): {
  ranked: RankedChunk[];
  rows: KbEvalChunkRow[];
} {
  const ranked = chunks.map((c, n) => ({
    rank: n + 1,
    sourceId: c.source?.id === undefined || c.source?.id === null ? null : String(c.source.id),
    sourceTitle: c.source?.title ?? null,
    docId: c.docId ?? null,
  }));
  const hitRanks = new Set(ranked.filter((r) => findHitRank([r], expected) !== null).map((r) => r.rank));
  const rows = chunks.map((c, n) => ({
    rank: n + 1,
    source_id: c.source?.id ?? null,
    source_title: c.source?.title ?? null,
    doc_id: c.docId ?? null,
    score: c.score ?? null,
    is_expected: hitRanks.has(n + 1),
    content: c.content,
  }));
  return { ranked, rows };
}

/** The names of a QueryRecord's relevant sources (their title, else their id). */
function relevantSourcesOf(record: KbQueryRecord): string[] | null {
  if (!record.relevantSources) return null;
  return record.relevantSources.map(
    (s) => s.title ?? (s.id === undefined || s.id === null ? '' : String(s.id)),
  );
}

export async function runKbEval(options: RunKbEvalOptions): Promise<KbEvalSummary> {
  const now = options.now ?? Date.now;
  const started = now();
  const { client, log } = options;
  const streamer = options.streamer;
  const mode = streamer ? 'stream' : 'async';
  const requestsAtStart = client.requests + (options.streamer?.requests ?? 0);
  const questionSet = questionSetFingerprint(options.questions);
  /** Questions recorded `not asked` because the run was stopped by its signal. */
  let notAskedStopped = 0;
  /** Set by the first kb.auth: nothing more is asked. */
  let refused: { seq: number; message: string } | undefined;
  const refuse = (seq: number, error: unknown) => {
    refused ??= { seq, message: describeError(error).message };
  };

  let projectId: KbId | null = null;
  let projectName: string | null = null;
  try {
    const project = await client.info();
    projectId = project.id;
    projectName = project.name;
  } catch (error) {
    const { code, message } = describeError(error);
    if (code === 'kb.auth') refuse(0, error);
    else
      log.warn({ reason: message }, 'kb eval: the project of REPORTER_KB_KEY could not be read (GET /info)');
  }

  const unknownSources = await options.useWarehouse((w) =>
    findUnknownExpectedSources(w, projectId, options.questions),
  );
  if (unknownSources && unknownSources.unknown.length > 0)
    options.onUnknownExpectedSources?.(unknownSources.unknown, unknownSources.snapshotId);

  const lease = leaseTiming(options.lease);
  await options.useWarehouse((w) =>
    w.execute([
      closeAbandonedKbEvalRuns(started - lease.staleMs, started),
      insertKbEvalRun({
        runId: options.runId,
        startedAt: started,
        kbBaseUrl: options.kbBaseUrl,
        projectId,
        projectName,
        questionSource: options.questionSource,
        questionQuery: options.questionQuery ?? null,
        questionSet,
        mode,
        settings: {
          concurrency: options.concurrency,
          waitTimeSeconds: options.waitTimeSeconds,
          timeoutSeconds: options.timeoutMs / 1000,
          ...(streamer ? { streamRetries: STREAM_RETRIES } : {}),
        },
        questions: options.questions.length,
      }),
    ]),
  );

  const heartbeat = startHeartbeat(
    () => options.useWarehouse((w) => w.execute([beatKbEvalRun(options.runId, now())])),
    lease.beatMs,
    log,
  );

  const generation = {
    client,
    now,
    timeoutMs: options.timeoutMs,
    waitTimeSeconds: options.waitTimeSeconds,
    log,
    onRefused: refuse,
  };

  const outcomes: QuestionOutcome[] = [];
  let statusRequests = 0;
  let done = 0;
  let failed = 0;

  async function ask(question: KbEvalQuestion, seq: number): Promise<void> {
    const questionStarted = now();
    const notAsked = refused
      ? refusedReason(refused)
      : options.signal?.aborted
        ? `not asked: the run was stopped (${(options.signal.reason as Error | undefined)?.message ?? 'a signal'})`
        : undefined;
    let retrieval: { ok: boolean; error: string | null; ms: number | null; chunks: KbChunk[] } = {
      ok: false,
      error: notAsked ?? null,
      ms: null,
      chunks: [],
    };
    let generated: Generated = {
      status: 'error',
      answer: null,
      statusRequests: 0,
      attempts: 0,
      latencyMs: null,
      errorCode: notAsked ? (refused ? 'kb.auth' : 'stopped') : null,
      error: notAsked ?? null,
    };
    if (notAsked && !refused) notAskedStopped++;
    if (!notAsked) {
      const t0 = now();
      try {
        const chunks = await client.retrieve({ query: question.question });
        retrieval = { ok: true, error: null, ms: now() - t0, chunks };
      } catch (error) {
        const { code, message } = describeError(error);
        if (code === 'kb.auth') refuse(seq, error);
        retrieval = { ok: false, error: `${code}: ${message}`, ms: now() - t0, chunks: [] };
      }
      if (refused) {
        generated = { ...generated, errorCode: 'kb.auth', error: retrieval.error ?? refusedReason(refused) };
      } else {
        generated = streamer
          ? await generateStreamed(generation, streamer, question.question, seq)
          : await generateAsync(generation, question.question, seq);
      }
    }
    const { ranked, rows } = chunkRows(retrieval.chunks, question.expectedSources);
    const hitRank = retrieval.ok ? findHitRank(ranked, question.expectedSources) : null;
    const answerContains =
      generated.status === 'answered' && question.expectedAnswerContains.length > 0
        ? answerContainsAll(generated.answer ?? '', question.expectedAnswerContains)
        : null;
    const row: KbEvalQuestionRow = {
      runId: options.runId,
      seq,
      questionKey: question.key,
      question: question.question,
      expectedSources: question.expectedSources,
      expectedAnswerContains: question.expectedAnswerContains,
      retrievalStatus: retrieval.ok ? 'ok' : 'error',
      retrievalError: retrieval.error,
      retrievalMs: retrieval.ms,
      chunks: rows,
      hitRank,
      queryId: generated.record?.id ?? null,
      queryStatus: generated.record?.status ?? null,
      status: generated.status,
      answer: generated.answer,
      answerContains,
      relevantSources: generated.record ? relevantSourcesOf(generated.record) : null,
      latencyMs: generated.latencyMs,
      statusRequests: generated.statusRequests,
      attempts: generated.attempts,
      errorCode: generated.errorCode,
      error: generated.error,
      asked: notAsked === undefined,
      startedAt: questionStarted,
      finishedAt: now(),
    };
    await options.useWarehouse((w) => w.execute(insertKbEvalQuestion(row)));
    outcomes.push({
      expectedSources: question.expectedSources,
      retrievalOk: retrieval.ok,
      hitRank,
      expectedAnswerContains: question.expectedAnswerContains,
      status: generated.status,
      answerContains,
      latencyMs: generated.latencyMs,
    });
    statusRequests += generated.statusRequests;
    done++;
    if (generated.status !== 'answered' || !retrieval.ok) failed++;
    options.onQuestion?.({ done, total: options.questions.length, failed, row });
  }

  let next = 0;
  let runError: unknown;
  const worker = async () => {
    while (next < options.questions.length && runError === undefined) {
      const n = next++;
      try {
        await ask(options.questions[n]!, n + 1);
      } catch (error) {
        // the warehouse refused a write: no further question; the run is finished with what was stored
        runError ??= error;
      }
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, options.questions.length));
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    await heartbeat.stop();
  }
  const metrics = computeKbEvalMetrics(outcomes);
  const stopped = options.signal?.aborted
    ? `stopped (${(options.signal.reason as Error | undefined)?.message ?? 'a signal'})`
    : undefined;
  const error = refused
    ? `the knowledge base refused REPORTER_KB_KEY${refused.seq > 0 ? ` at question ${refused.seq}` : ''}: ${refused.message}`
    : runError
      ? describeError(runError).message
      : (stopped ?? null);
  const allGood =
    outcomes.length === options.questions.length &&
    outcomes.every((o) => o.status === 'answered' && o.retrievalOk);
  const status: KbEvalRunStatus =
    refused || runError
      ? 'failed'
      : notAskedStopped > 0
        ? 'stopped'
        : metrics.answered === 0
          ? 'failed'
          : allGood
            ? 'success'
            : 'partial';
  const summary: KbEvalSummary = {
    runId: options.runId,
    status: options.questions.length === 0 ? 'success' : status,
    questionSet,
    projectId: projectId === null ? null : kbIdForJson(projectId),
    projectName,
    mode,
    metrics,
    requests: client.requests + (options.streamer?.requests ?? 0) - requestsAtStart,
    statusRequests,
    durationMs: now() - started,
    error,
    unknownExpectedSources: unknownSources?.unknown ?? null,
  };
  await options.useWarehouse((w) =>
    w.execute([
      finishKbEvalRun({
        runId: options.runId,
        finishedAt: now(),
        status: summary.status,
        metrics,
        requests: summary.requests,
        statusRequests,
        durationMs: summary.durationMs,
        error,
      }),
    ]),
  );
  if (runError) throw runError;
  return summary;
}

/** Why a question was not asked after the key was refused. */
function refusedReason(refused: { seq: number; message: string }): string {
  return `not asked: the knowledge base refused REPORTER_KB_KEY${refused.seq > 0 ? ` at question ${refused.seq}` : ''} (${refused.message})`;
}
