// The coverage of an unhandled run's top clusters (docs/unhandled.md#coverage), stored per run and cluster
// (unhandled_coverage, replaced with each computation) and read back: what the knowledge base's retrieval
// answered to each cluster's central question (asked by the caller: this unit reads no platform), whether
// that makes the cluster answerable, and what the Prompter suggested for its messages (from the warehouse).
import { defineBatchTable } from '../../warehouse/commit-batch.js';
import { defineStagedTable } from '../../warehouse/stage-rows.js';
import type { PlainRow, Warehouse } from '../../warehouse/warehouse.js';
import { INSERT_COVERAGE, SELECT_COVERAGE } from './coverage-sql.js';
import { maskQuestion } from './normalise-question.js';
import { questionTerms } from './question-terms.js';
import { UNHANDLED_COVERAGE_TABLE } from './tables.js';

/**
 * A cluster is answerable by the knowledge base when its best chunk scores at least ANSWERABLE_SCORE and
 * holds at least ANSWERABLE_TERMS of the question's terms: chosen from the scores of the emulator's covered
 * and uncovered topics (docs/unhandled.md#coverage says how).
 */
export const ANSWERABLE_SCORE = 0.5;
export const ANSWERABLE_TERMS = 0.6;

/** What the retrieval answered to one cluster's central question. */
export interface CentralAnswer {
  clusterId: string;
  question: string;
  /** False: not asked (no REPORTER_KB_KEY) or the retrieval failed (`error`). */
  asked: boolean;
  sourceId: string | null;
  sourceName: string | null;
  /** The best chunk's score; 0 when nothing was retrieved; null when not asked. */
  score: number | null;
  /** The best chunk's text (not stored: only the share of the question's terms it holds). */
  chunk: string | null;
  error: string | null;
}

export interface ClusterCoverage {
  centralQuestion: string;
  kbAsked: boolean;
  bestSourceId: string | null;
  bestSourceName: string | null;
  score: number | null;
  /** The share of the question's terms found in the best chunk (null when not asked). */
  termsFound: number | null;
  /** score >= threshold and termsFound >= termsThreshold; null when the knowledge base was not asked. */
  answerable: boolean | null;
  threshold: number;
  termsThreshold: number;
  kbError: string | null;
  prompterRequests: number;
  prompterSuggestions: number;
  prompterTopIntent: string | null;
}

interface CoverageStageRow {
  cluster_id: string;
  central_question: string;
  kb_asked: boolean;
  best_source_id: string | null;
  best_source_name: string | null;
  score: number | null;
  terms_found: number | null;
  kb_error: string | null;
}

const COVERAGE_STAGE = defineStagedTable<CoverageStageRow>('stage_unhandled_coverage', [
  ['cluster_id', 'varchar'],
  ['central_question', 'varchar'],
  ['kb_asked', 'boolean'],
  ['best_source_id', 'varchar'],
  ['best_source_name', 'varchar'],
  ['score', 'double'],
  ['terms_found', 'double'],
  ['kb_error', 'varchar'],
]);

/** Stores the coverage of the run's clusters `answers` name, replacing the run's earlier coverage. */
export async function storeCoverage(
  warehouse: Warehouse,
  runId: string,
  answers: readonly CentralAnswer[],
  now: Date,
  threshold = ANSWERABLE_SCORE,
  termsThreshold = ANSWERABLE_TERMS,
): Promise<Map<string, ClusterCoverage>> {
  await warehouse.commitBatch({
    tables: [
      defineBatchTable({
        spec: UNHANDLED_COVERAGE_TABLE,
        stage: COVERAGE_STAGE,
        rows: answers.map((a) => ({
          cluster_id: a.clusterId,
          central_question: a.question,
          kb_asked: a.asked,
          best_source_id: a.sourceId,
          best_source_name: a.sourceName,
          score: a.score,
          terms_found: a.asked ? termsFound(a.question, a.chunk) : null,
          kb_error: a.error,
        })),
        replaceScope: { run_id: runId },
        insert: INSERT_COVERAGE,
        constants: { run_id: runId, threshold, terms_threshold: termsThreshold, computed_at: now },
      }),
    ],
    at: now,
  });
  return readCoverage(warehouse, runId);
}

/**
 * The share of the question's terms (stop words and placeholders out, Snowball stems: question-terms.ts)
 * found in the chunk, a term matching a chunk's term it begins or that begins it (`wrap` / `wrapping`).
 */
export function termsFound(question: string, chunk: string | null): number {
  const asked = questionTerms(question);
  if (asked.length === 0 || chunk === null) return 0;
  const held = questionTerms(maskQuestion(chunk));
  const found = asked.filter((t) => held.some((h) => h.startsWith(t) || t.startsWith(h)));
  return found.length / asked.length;
}

/** The stored coverage of a run, by cluster id (empty when none was computed). */
export async function readCoverage(
  warehouse: Warehouse,
  runId: string,
): Promise<Map<string, ClusterCoverage>> {
  const rows = await warehouse.query(SELECT_COVERAGE, { run_id: runId });
  return new Map(rows.map((r) => [String(r['cluster_id']), toCoverage(r)]));
}

const textOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function toCoverage(r: PlainRow): ClusterCoverage {
  return {
    centralQuestion: String(r['central_question']),
    kbAsked: r['kb_asked'] === true,
    bestSourceId: textOrNull(r['best_source_id']),
    bestSourceName: textOrNull(r['best_source_name']),
    score: r['score'] === null ? null : Number(r['score']),
    termsFound: r['terms_found'] === null ? null : Number(r['terms_found']),
    answerable: r['answerable'] === null ? null : r['answerable'] === true,
    threshold: Number(r['threshold']),
    termsThreshold: Number(r['terms_threshold']),
    kbError: textOrNull(r['kb_error']),
    prompterRequests: Number(r['prompter_requests']),
    prompterSuggestions: Number(r['prompter_suggestions']),
    prompterTopIntent: textOrNull(r['prompter_top_intent']),
  };
}
