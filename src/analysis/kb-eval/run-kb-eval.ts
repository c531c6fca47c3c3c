// `kb eval`'s work: asks the knowledge base each question (`concurrency` at a time): retrieval (the chunks, their
// sources, scores and ranks), then the answer (generate-answer.ts: async with long-polled status, or SSE). Each
// question is stored with its chunks as soon as it settles, the run row first (`running`) and finished with its
// figures last, so a stopped or failed run keeps every question it had done. A refused key (kb.auth: expired or
// revoked during the run) stops the asking: the questions not yet asked are recorded as failed with the reason.
// While running, the run's heartbeat is refreshed (a lease, src/warehouse/lease.ts): a run started later closes
// as `abandoned` a `running` run whose owner on this host is dead (src/process/process-identity.ts) at once, and one
// whose heartbeat went stale (killed outright on another host, or hung) after the lease.

import type { Logger } from '../../log.js';
import type { KbClient } from '../../platform/kb/kb-client.js';
import { kbIdForJson } from '../../platform/kb/kb-json.js';
import type { KbChunk, KbId, KbQueryRecord } from '../../platform/kb/kb-schemas.js';
import type { KbStreamer } from '../../platform/kb/kb-stream.js';
import { thisProcess } from '../../process/process-identity.js';
import { type LeaseTiming, leaseTiming, startHeartbeat } from '../../warehouse/lease.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
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
  closeDeadOwnersKbEvalRuns,
  finishKbEvalRun,
  insertKbEvalQuestion,
  insertKbEvalRun,
  type KbEvalChunkRow,
  type KbEvalQuestionRow,
  type KbEvalRunStatus,
  SELECT_RUNNING_KB_EVAL_RUNS,
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

/** One run as it goes: what its steps read and count. */
interface KbEvalRun {
  options: RunKbEvalOptions;
  now: () => number;
  started: number;
  mode: KbEvalSummary['mode'];
  requestsAtStart: number;
  questionSet: string;
  /** Questions recorded `not asked` because the run was stopped by its signal. */
  notAskedStopped: number;
  /** Set by the first kb.auth: nothing more is asked. */
  refused?: { seq: number; message: string };
  projectId: KbId | null;
  projectName: string | null;
  outcomes: QuestionOutcome[];
  statusRequests: number;
  done: number;
  failed: number;
}

/** What asking one question gave: its retrieval and its answer (both errors when it was not asked). */
interface Asked {
  retrieval: { ok: boolean; error: string | null; ms: number | null; chunks: KbChunk[] };
  generated: Generated;
  notAsked: string | undefined;
}

export async function runKbEval(options: RunKbEvalOptions): Promise<KbEvalSummary> {
  const now = options.now ?? Date.now;
  const run: KbEvalRun = {
    options,
    now,
    started: now(),
    mode: options.streamer ? 'stream' : 'async',
    requestsAtStart: options.client.requests + (options.streamer?.requests ?? 0),
    questionSet: questionSetFingerprint(options.questions),
    notAskedStopped: 0,
    projectId: null,
    projectName: null,
    outcomes: [],
    statusRequests: 0,
    done: 0,
    failed: 0,
  };
  await readKbProject(run);

  const unknownSources = await options.useWarehouse((w) =>
    findUnknownExpectedSources(w, run.projectId, options.questions),
  );
  if (unknownSources && unknownSources.unknown.length > 0)
    options.onUnknownExpectedSources?.(unknownSources.unknown, unknownSources.snapshotId);

  const lease = leaseTiming(options.lease);
  await recordRunStart(run, lease.staleMs);
  const heartbeat = startHeartbeat(
    () => options.useWarehouse((w) => w.execute([beatKbEvalRun(options.runId, now())])),
    lease.beatMs,
    options.log,
  );
  let runError: unknown;
  try {
    runError = await askAll(run);
  } finally {
    await heartbeat.stop();
  }
  const summary = await recordRunFinish(run, runError, unknownSources?.unknown ?? null);
  if (runError) throw runError;
  return summary;
}

/** Keeps the first refusal of the key (kb.auth): nothing more is asked after it. */
function refuse(run: KbEvalRun, seq: number, error: unknown): void {
  run.refused ??= { seq, message: describeError(error).message };
}

/** The knowledge base project of the key (GET /info); a refused key stops the run before its first question. */
async function readKbProject(run: KbEvalRun): Promise<void> {
  try {
    const project = await run.options.client.info();
    run.projectId = project.id;
    run.projectName = project.name;
  } catch (error) {
    const { code, message } = describeError(error);
    if (code === 'kb.auth') refuse(run, 0, error);
    else
      run.options.log.warn(
        { reason: message },
        'kb eval: the project of REPORTER_KB_KEY could not be read (GET /info)',
      );
  }
}

/** Closes the runs whose owner is dead or whose lease went stale, and records this one as `running`. */
async function recordRunStart(run: KbEvalRun, staleMs: number): Promise<void> {
  const { options, started } = run;
  await options.useWarehouse(async (w) =>
    w.execute([
      ...closeDeadOwnersKbEvalRuns(await w.query(SELECT_RUNNING_KB_EVAL_RUNS), started),
      closeAbandonedKbEvalRuns(started - staleMs, started),
      insertKbEvalRun({
        owner: thisProcess(),
        runId: options.runId,
        startedAt: started,
        kbBaseUrl: options.kbBaseUrl,
        projectId: run.projectId,
        projectName: run.projectName,
        questionSource: options.questionSource,
        questionQuery: options.questionQuery ?? null,
        questionSet: run.questionSet,
        mode: run.mode,
        settings: {
          concurrency: options.concurrency,
          waitTimeSeconds: options.waitTimeSeconds,
          timeoutSeconds: options.timeoutMs / 1000,
          ...(options.streamer ? { streamRetries: STREAM_RETRIES } : {}),
        },
        questions: options.questions.length,
      }),
    ]),
  );
}

/**
 * Asks every question, `concurrency` at a time. Returns the error of a refused write to the warehouse (no
 * further question is asked; the run is finished with what was stored), else undefined.
 */
async function askAll(run: KbEvalRun): Promise<unknown> {
  const { questions, concurrency } = run.options;
  let next = 0;
  let runError: unknown;
  const worker = async () => {
    while (next < questions.length && runError === undefined) {
      const n = next++;
      try {
        await askQuestion(run, questions[n]!, n + 1);
      } catch (error) {
        // the warehouse refused a write: no further question; the run is finished with what was stored
        runError ??= error;
      }
    }
  };
  const workers = Math.max(1, Math.min(concurrency, questions.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return runError;
}

/** Asks one question (or records why it was not asked), stores it with its chunks and counts it. */
async function askQuestion(run: KbEvalRun, question: KbEvalQuestion, seq: number): Promise<void> {
  const { options, now } = run;
  const questionStarted = now();
  const { retrieval, generated, notAsked } = await retrieveAndGenerate(run, question, seq);
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
  run.outcomes.push({
    expectedSources: question.expectedSources,
    retrievalOk: retrieval.ok,
    hitRank,
    expectedAnswerContains: question.expectedAnswerContains,
    status: generated.status,
    answerContains,
    latencyMs: generated.latencyMs,
  });
  run.statusRequests += generated.statusRequests;
  run.done++;
  if (generated.status !== 'answered' || !retrieval.ok) run.failed++;
  options.onQuestion?.({ done: run.done, total: options.questions.length, failed: run.failed, row });
}

/**
 * The retrieval, then the answer (streamed or async); neither once the key was refused or the run stopped
 * (`notAsked` says why).
 */
async function retrieveAndGenerate(run: KbEvalRun, question: KbEvalQuestion, seq: number): Promise<Asked> {
  const { options, now } = run;
  const { client, streamer } = options;
  const refused = run.refused;
  const notAsked = refused
    ? refusedReason(refused)
    : options.signal?.aborted
      ? `not asked: the run was stopped (${(options.signal.reason as Error | undefined)?.message ?? 'a signal'})`
      : undefined;
  let retrieval: Asked['retrieval'] = {
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
  if (notAsked && !refused) run.notAskedStopped++;
  if (notAsked) return { retrieval, generated, notAsked };
  const t0 = now();
  try {
    const chunks = await client.retrieve({ query: question.question });
    retrieval = { ok: true, error: null, ms: now() - t0, chunks };
  } catch (error) {
    const { code, message } = describeError(error);
    if (code === 'kb.auth') refuse(run, seq, error);
    retrieval = { ok: false, error: `${code}: ${message}`, ms: now() - t0, chunks: [] };
  }
  if (run.refused) {
    generated = { ...generated, errorCode: 'kb.auth', error: retrieval.error ?? refusedReason(run.refused) };
  } else {
    const generation = {
      client,
      now,
      timeoutMs: options.timeoutMs,
      waitTimeSeconds: options.waitTimeSeconds,
      log: options.log,
      onRefused: (refusedSeq: number, error: unknown) => refuse(run, refusedSeq, error),
    };
    generated = streamer
      ? await generateStreamed(generation, streamer, question.question, seq)
      : await generateAsync(generation, question.question, seq);
  }
  return { retrieval, generated, notAsked };
}

/** The run's figures, status and error, written to its row (finished), as its summary. */
async function recordRunFinish(
  run: KbEvalRun,
  runError: unknown,
  unknownExpectedSources: string[] | null,
): Promise<KbEvalSummary> {
  const { options, now, refused, outcomes } = run;
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
      : run.notAskedStopped > 0
        ? 'stopped'
        : metrics.answered === 0
          ? 'failed'
          : allGood
            ? 'success'
            : 'partial';
  const summary: KbEvalSummary = {
    runId: options.runId,
    status: options.questions.length === 0 ? 'success' : status,
    questionSet: run.questionSet,
    projectId: run.projectId === null ? null : kbIdForJson(run.projectId),
    projectName: run.projectName,
    mode: run.mode,
    metrics,
    requests: options.client.requests + (options.streamer?.requests ?? 0) - run.requestsAtStart,
    statusRequests: run.statusRequests,
    durationMs: now() - run.started,
    error,
    unknownExpectedSources,
  };
  await options.useWarehouse((w) =>
    w.execute([
      finishKbEvalRun({
        runId: options.runId,
        finishedAt: now(),
        status: summary.status,
        metrics,
        requests: summary.requests,
        statusRequests: run.statusRequests,
        durationMs: summary.durationMs,
        error,
      }),
    ]),
  );
  return summary;
}

/** Why a question was not asked after the key was refused. */
function refusedReason(refused: { seq: number; message: string }): string {
  return `not asked: the knowledge base refused REPORTER_KB_KEY${refused.seq > 0 ? ` at question ${refused.seq}` : ''} (${refused.message})`;
}
