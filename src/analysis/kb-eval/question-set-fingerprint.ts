// The fingerprint of a `kb eval` question set: runs are compared (kb_eval_run_changes) only when they asked the
// same set, so a `--limit 2` run, or a file with a question added, is never read against a full run of another
// set. sha256 over each question's key, text, expected sources and expected answer texts (each list sorted), the
// questions sorted: the order of the file's lines does not change the set.
import { createHash } from 'node:crypto';
import type { KbEvalQuestion } from './read-eval-questions.js';

export function questionSetFingerprint(questions: readonly KbEvalQuestion[]): string {
  const items = questions
    .map((q) =>
      JSON.stringify([
        q.key,
        q.question,
        [...q.expectedSources].sort(),
        [...q.expectedAnswerContains].sort(),
      ]),
    )
    .sort();
  return createHash('sha256').update(items.join('\n')).digest('hex');
}
