// The Prompter's warehouse tables: the questions `prompter ask` sent (migration 011) and the answers the
// platform pushes back through the webhook receiver (migration 010), joined by question_id. Not exported
// (no project column).
import type { TableSpec } from '../../warehouse/table-spec.js';

export const PROMPTER_TABLES: readonly TableSpec[] = [
  { name: 'prompter_requests', key: ['batch_id', 'seq'], write: 'replace-by-key', exported: false },
  { name: 'prompter_answers', key: ['question_id'], write: 'replace-by-key', exported: false },
  {
    name: 'prompter_answer_options',
    key: ['question_id', 'rank'],
    write: 'replace-by-key',
    exported: false,
  },
];
