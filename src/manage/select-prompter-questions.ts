// The questions `prompter ask --sql` sends: the analyst's SELECT, checked like label-sessions' (one SELECT,
// only the warehouse's tables, a text column `text`), run in the read-only sandbox; an `expected_intent`
// column, when the query returns one, gives each question's expected intent. Rows without a text are skipped
// (a NULL question cannot be asked) and counted.
import { checkSelectQuery, runSelectQuery } from './select-label-targets.js';
import type { QuerySandbox } from './use-query-sandbox.js';

const EXAMPLE = "select distinct question as text from messages where nlp_class = '/CatchAll'";

export interface SelectedQuestions {
  questions: { text: string; expectedIntent?: string }[];
  /** Rows whose text was NULL or empty. */
  skipped: number;
}

export async function selectPrompterQuestions(
  sandbox: QuerySandbox,
  query: string,
  limit: number | undefined,
): Promise<SelectedQuestions> {
  const sql = await checkSelectQuery(sandbox, query, {
    column: 'text',
    example: EXAMPLE,
    table: 'messages',
    meaning: 'the questions to send',
  });
  const rows = await runSelectQuery(sandbox, sql, limit);
  const out: SelectedQuestions = { questions: [], skipped: 0 };
  for (const row of rows) {
    const text = row['text'];
    if (typeof text !== 'string' || text.trim() === '') {
      out.skipped++;
      continue;
    }
    const expected = row['expected_intent'];
    out.questions.push({
      text: text.trim(),
      ...(typeof expected === 'string' && expected.trim() !== '' ? { expectedIntent: expected.trim() } : {}),
    });
  }
  return out;
}
