// The questions `kb eval --sql` asks: the analyst's SELECT over the warehouse (e.g. last week's most frequent
// first questions), checked like label-sessions' (one SELECT, only the warehouse's tables, a text column
// `question`) and run in the read-only sandbox. Optional columns give the expectations: `expected_sources`
// (a VARCHAR[] list, or text separated by `|` or `;`), `expected_answer_contains` (text) and `id`. Rows without
// a question are skipped and counted, and so are repeats of a question already selected.

import type { KbEvalQuestion } from '../analysis/kb-eval/read-eval-questions.js';
import { splitSourceList } from '../analysis/kb-eval/read-eval-questions.js';
import { checkSelectQuery, runSelectQuery } from './select-label-targets.js';
import type { QuerySandbox } from './use-query-sandbox.js';

const EXAMPLE =
  "select first_question as question, count(*) as n from sessions where start_time >= now() - interval 7 day and first_question <> '' group by 1 order by n desc limit 20";

export interface SelectedKbEvalQuestions {
  questions: KbEvalQuestion[];
  /** Rows whose question was NULL or empty. */
  skipped: number;
  /** Rows repeating a question (by id, else text) already selected. */
  repeated: number;
}

function listOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value))
    return [
      ...new Set(value.flatMap((v) => (v === null || v === undefined ? [] : [String(v).trim()]))),
    ].filter((v) => v !== '');
  return splitSourceList(String(value));
}

export async function selectKbEvalQuestions(
  sandbox: QuerySandbox,
  query: string,
  limit: number | undefined,
): Promise<SelectedKbEvalQuestions> {
  const sql = await checkSelectQuery(sandbox, query, {
    column: 'question',
    example: EXAMPLE,
    table: 'sessions',
    meaning: 'the questions to ask the knowledge base',
  });
  const rows = await runSelectQuery(sandbox, sql, limit);
  const out: SelectedKbEvalQuestions = { questions: [], skipped: 0, repeated: 0 };
  const keys = new Set<string>();
  for (const row of rows) {
    const text = row['question'];
    if (typeof text !== 'string' || text.trim() === '') {
      out.skipped++;
      continue;
    }
    const id = row['id'];
    const key = id === null || id === undefined || String(id).trim() === '' ? text.trim() : String(id).trim();
    if (keys.has(key)) {
      out.repeated++;
      continue;
    }
    keys.add(key);
    const contains = row['expected_answer_contains'];
    out.questions.push({
      key,
      question: text.trim(),
      expectedSources: listOf(row['expected_sources']),
      expectedAnswerContains: typeof contains === 'string' && contains.trim() !== '' ? [contains.trim()] : [],
    });
  }
  return out;
}
