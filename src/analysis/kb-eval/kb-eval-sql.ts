// The statements of `kb eval` over kb_eval_runs, kb_eval_questions and kb_eval_chunks (migration 014): the run
// recorded `running` before its first question, each question with its chunks in one transaction as soon as
// it settles, and the run finished with its figures. The chunks travel JSON-encoded in one parameter
// (DuckDB's from_json unpacks them): one INSERT per question, not one per chunk. A running run records its
// owner (host, pid, boot id, start time: migration 016) so a dead owner's run is closed at once.
import { stringifyKbJson } from '../../platform/kb/kb-json.js';
import type { KbId } from '../../platform/kb/kb-schemas.js';
import { judgeOwner, type ProcessOwner } from '../../process/process-identity.js';
import type { PlainRow, SqlStatement } from '../../warehouse/warehouse.js';
import type { KbEvalMetrics } from './kb-eval-metrics.js';

export interface KbEvalRunStart {
  runId: string;
  startedAt: number;
  kbBaseUrl: string;
  projectId: KbId | null;
  projectName: string | null;
  questionSource: string;
  questionQuery: string | null;
  /** questionSetFingerprint of the questions: runs are compared only within one set. */
  questionSet: string;
  mode: 'async' | 'stream';
  settings: Record<string, unknown>;
  questions: number;
  /** The process running it (src/process/process-identity.ts). */
  owner: ProcessOwner;
}

export function insertKbEvalRun(run: KbEvalRunStart): SqlStatement {
  return {
    sql: `INSERT INTO kb_eval_runs (run_id, started_at, status, kb_base_url, project_id, project_name,
            question_source, question_query, question_set, mode, settings, questions, heartbeat_at, pid, host,
            boot_id, start_ticks)
          VALUES ($run_id, $started_at, 'running', $kb_base_url, $project_id, $project_name, $question_source,
            $question_query, $question_set, $mode, $settings, $questions, $started_at, $pid, $host, $boot_id,
            $start_ticks)`,
    params: {
      run_id: run.runId,
      started_at: new Date(run.startedAt),
      kb_base_url: run.kbBaseUrl,
      project_id: run.projectId,
      project_name: run.projectName,
      question_source: run.questionSource,
      question_query: run.questionQuery,
      question_set: run.questionSet,
      mode: run.mode,
      settings: JSON.stringify(run.settings),
      questions: run.questions,
      pid: run.owner.pid,
      host: run.owner.host,
      boot_id: run.owner.bootId,
      start_ticks: run.owner.startTicks,
    },
  };
}

/** The running run's heartbeat (its lease: src/warehouse/lease.ts). */
export function beatKbEvalRun(runId: string, at: number): SqlStatement {
  return {
    sql: `UPDATE kb_eval_runs SET heartbeat_at = $at WHERE run_id = $run_id AND status = 'running'`,
    params: { run_id: runId, at: new Date(at) },
  };
}

/**
 * Closes the runs left `running` by a process killed outright (kill -9, a crash): their heartbeat is older
 * than `staleBefore`. They become `abandoned`, never a baseline; their recorded questions stay.
 */
export function closeAbandonedKbEvalRuns(staleBefore: number, at: number): SqlStatement {
  return {
    sql: `UPDATE kb_eval_runs SET status = 'abandoned', finished_at = $at,
            error = 'abandoned: the process stopped beating while the run was running (killed, or crashed)'
          WHERE status = 'running' AND coalesce(heartbeat_at, started_at) < $stale_before`,
    params: { at: new Date(at), stale_before: new Date(staleBefore) },
  };
}

/** The running runs with their owners (to close those whose owner is known dead). */
export const SELECT_RUNNING_KB_EVAL_RUNS =
  "SELECT run_id, pid, host, boot_id, start_ticks FROM kb_eval_runs WHERE status = 'running'";

/**
 * Closes as `abandoned`, at once, the running runs (rows of SELECT_RUNNING_KB_EVAL_RUNS) whose owner is known
 * dead: on this host, its PID gone, a zombie, or another process now (src/process/process-identity.ts).
 */
export function closeDeadOwnersKbEvalRuns(running: readonly PlainRow[], at: number): SqlStatement[] {
  const statements: SqlStatement[] = [];
  for (const row of running) {
    const owner: ProcessOwner = {
      host: row['host'] === null ? null : String(row['host']),
      pid: row['pid'] === null ? null : Number(row['pid']),
      bootId: row['boot_id'] === null ? null : String(row['boot_id']),
      startTicks: row['start_ticks'] === null ? null : Number(row['start_ticks']),
    };
    const verdict = judgeOwner(owner);
    if (verdict.state !== 'dead') continue;
    statements.push({
      sql: `UPDATE kb_eval_runs SET status = 'abandoned', finished_at = $at, error = $error
            WHERE run_id = $run_id AND status = 'running'`,
      params: {
        run_id: String(row['run_id']),
        at: new Date(at),
        error: `abandoned: its process (PID ${owner.pid} on ${owner.host}) ${verdict.reason}; the run was not finished`,
      },
    });
  }
  return statements;
}

export interface KbEvalChunkRow {
  rank: number;
  source_id: KbId | null;
  source_title: string | null;
  doc_id: string | null;
  score: number | null;
  is_expected: boolean;
  content: string | null;
}

export interface KbEvalQuestionRow {
  runId: string;
  seq: number;
  questionKey: string;
  question: string;
  expectedSources: readonly string[];
  expectedAnswerContains: readonly string[];
  retrievalStatus: 'ok' | 'error';
  retrievalError: string | null;
  retrievalMs: number | null;
  chunks: readonly KbEvalChunkRow[];
  hitRank: number | null;
  queryId: KbId | null;
  queryStatus: string | null;
  status: 'answered' | 'failed' | 'error';
  answer: string | null;
  answerContains: boolean | null;
  relevantSources: readonly string[] | null;
  latencyMs: number | null;
  statusRequests: number;
  attempts: number;
  errorCode: string | null;
  error: string | null;
  /** False for a question recorded `not asked` (the run stopped, or the key refused before it). */
  asked: boolean;
  startedAt: number;
  finishedAt: number;
}

const CHUNK_ROW_TYPE = JSON.stringify([
  {
    rank: 'INTEGER',
    source_id: 'BIGINT',
    source_title: 'VARCHAR',
    doc_id: 'VARCHAR',
    score: 'DOUBLE',
    is_expected: 'BOOLEAN',
    content: 'VARCHAR',
  },
]);

/** The question's row and its chunks' rows, for one transaction (Warehouse.execute). */
export function insertKbEvalQuestion(row: KbEvalQuestionRow): SqlStatement[] {
  const statements: SqlStatement[] = [
    {
      sql: `INSERT INTO kb_eval_questions (run_id, seq, question_key, question, expected_sources,
              expected_answer_contains, retrieval_status, retrieval_error, retrieval_ms, chunks, hit_rank, query_id,
              query_status, status, answer, answer_contains, relevant_sources, latency_ms, status_requests, attempts,
              error_code, error, asked, started_at, finished_at)
            VALUES ($run_id, $seq, $question_key, $question, $expected_sources::VARCHAR[],
              $expected_answer_contains::VARCHAR[], $retrieval_status, $retrieval_error, $retrieval_ms, $chunks,
              $hit_rank, $query_id, $query_status, $status, $answer, $answer_contains,
              CASE WHEN $has_relevant THEN $relevant_sources::VARCHAR[] END, $latency_ms, $status_requests,
              $attempts, $error_code, $error, $asked, $started_at, $finished_at)`,
      params: {
        run_id: row.runId,
        seq: row.seq,
        question_key: row.questionKey,
        question: row.question,
        expected_sources: row.expectedSources,
        expected_answer_contains: row.expectedAnswerContains,
        retrieval_status: row.retrievalStatus,
        retrieval_error: row.retrievalError,
        retrieval_ms: row.retrievalMs,
        chunks: row.chunks.length,
        hit_rank: row.hitRank,
        query_id: row.queryId,
        query_status: row.queryStatus,
        status: row.status,
        answer: row.answer,
        answer_contains: row.answerContains,
        has_relevant: row.relevantSources !== null,
        relevant_sources: row.relevantSources ?? [],
        latency_ms: row.latencyMs,
        status_requests: row.statusRequests,
        attempts: row.attempts,
        error_code: row.errorCode,
        error: row.error,
        asked: row.asked,
        started_at: new Date(row.startedAt),
        finished_at: new Date(row.finishedAt),
      },
    },
  ];
  if (row.chunks.length > 0)
    statements.push({
      sql: `INSERT INTO kb_eval_chunks (run_id, seq, rank, source_id, source_title, doc_id, score, is_expected, content)
            SELECT $run_id, $seq, t.c.rank, t.c.source_id, t.c.source_title, t.c.doc_id, t.c.score, t.c.is_expected,
              t.c.content
            FROM (SELECT unnest(from_json($rows, '${CHUNK_ROW_TYPE}')) AS c) t`,
      params: { run_id: row.runId, seq: row.seq, rows: stringifyKbJson(row.chunks) },
    });
  return statements;
}

/**
 * How a run ended: success (every question retrieved and answered), partial (every question asked, some not
 * answered), failed (none answered, or the key refused and the rest not asked), stopped (a signal: the rest
 * not asked). Only success and partial runs asked every question and are baselines for later runs.
 */
export type KbEvalRunStatus = 'success' | 'partial' | 'failed' | 'stopped';

export interface KbEvalRunFinish {
  runId: string;
  finishedAt: number;
  status: KbEvalRunStatus;
  metrics: KbEvalMetrics;
  requests: number;
  statusRequests: number;
  durationMs: number;
  error: string | null;
}

export function finishKbEvalRun(finish: KbEvalRunFinish): SqlStatement {
  const m = finish.metrics;
  return {
    sql: `UPDATE kb_eval_runs SET finished_at = $finished_at, status = $status, answered = $answered,
            failures = $failures, retrieval_failures = $retrieval_failures,
            with_expected_sources = $with_expected_sources, hit_at_1 = $hit_at_1, hit_at_5 = $hit_at_5, mrr = $mrr,
            with_expected_answer = $with_expected_answer, answer_contains_rate = $answer_contains_rate,
            latency_p50_ms = $latency_p50_ms, latency_p95_ms = $latency_p95_ms, requests = $requests,
            status_requests = $status_requests, duration_ms = $duration_ms, error = $error
          WHERE run_id = $run_id`,
    params: {
      run_id: finish.runId,
      finished_at: new Date(finish.finishedAt),
      status: finish.status,
      answered: m.answered,
      failures: m.failures,
      retrieval_failures: m.retrievalFailures,
      with_expected_sources: m.withExpectedSources,
      hit_at_1: m.hitAt1,
      hit_at_5: m.hitAt5,
      mrr: m.mrr,
      with_expected_answer: m.withExpectedAnswer,
      answer_contains_rate: m.answerContainsRate,
      latency_p50_ms: m.latencyP50Ms,
      latency_p95_ms: m.latencyP95Ms,
      requests: finish.requests,
      status_requests: finish.statusRequests,
      duration_ms: finish.durationMs,
      error: finish.error,
    },
  };
}
