// The knowledge base's evaluation as a unit: `kb eval` asks a question set (retrieval and generation) and
// records each run beside the earlier ones in kb_eval_* (migration 014, docs/kb-eval.md). Not exported (no
// project column).
import type { AnalysisUnit } from '../analysis-unit.js';

export const kbEvalAnalysis: AnalysisUnit = {
  id: 'kb-eval',
  describe: 'a question set asked of the knowledge base: retrieval and answers measured, run by run',
  tables: [
    { name: 'kb_eval_runs', key: ['run_id'], write: 'replace-by-key', exported: false },
    { name: 'kb_eval_questions', key: ['run_id', 'seq'], write: 'replace-by-key', exported: false },
    { name: 'kb_eval_chunks', key: ['run_id', 'seq', 'rank'], write: 'append', exported: false },
  ],
};
