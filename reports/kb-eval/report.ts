// The `kb-eval` report: the latest `kb eval` run started in the period that finished normally (its figures:
// hit@1, hit@5, MRR, answers with the expected text, failures, latency), compared with the previous such run of
// the same knowledge base project and question set, its worst questions and the questions that did worse than
// last time, and every run of the period side by side (stopped and failed runs flagged); charts of the figures run by run and of the run's hit ranks. Small: written
// in memory with chart images, or (--format html) as one self-contained page.

import { type Figure, figureSheet } from '../../src/report/figure-sheet.js';
import type {
  CellInput,
  ChartSpec,
  ColumnSpec,
  ReportDefinition,
  SheetSource,
} from '../../src/report/report-definition.js';
import type { PlainRow, PlainValue } from '../../src/warehouse/warehouse.js';

const col = (key: string, header: string, format: ColumnSpec['format'], width?: number): ColumnSpec =>
  width === undefined ? { key, header, format } : { key, header, format, width };

export const NO_RUN_NOTE =
  'No kb eval run that finished normally (success or partial) started in this period: run reporter-etl kb eval, or widen --from / --to';

const num = (v: PlainValue | undefined): number | null => (typeof v === 'number' ? v : null);
const text = (v: PlainValue | undefined): string | null => (v === null || v === undefined ? null : String(v));

/** Key/value: the run's figures (and its settings), each with its format. */
function runSheet(run: PlainRow | undefined, tz: string): SheetSource {
  const rows: Figure[] = run
    ? [
        ['Run', text(run['run_id']), 'text'],
        [`Started (${tz})`, num(run['started_at']), 'datetime'],
        [`Finished (${tz})`, num(run['finished_at']), 'datetime'],
        ['Status', text(run['status']), 'text'],
        ['Knowledge base', text(run['kb_base_url']), 'text'],
        [
          'Project',
          run['project_name'] === null ? null : `${run['project_name']} (id ${run['project_id']})`,
          'text',
        ],
        ['Questions from', text(run['question_source']), 'text'],
        ['Generation', run['mode'] === 'stream' ? 'SSE stream' : 'async query, long-polled status', 'text'],
        ['Settings', text(run['settings']), 'text'],
        ['Questions', num(run['questions']), 'integer'],
        ['Answered', num(run['answered']), 'integer'],
        ['Failed', num(run['failures']), 'integer'],
        ['Retrievals failed', num(run['retrieval_failures']), 'integer'],
        ['Questions with expected sources (retrieved)', num(run['with_expected_sources']), 'integer'],
        ['Hit@1', num(run['hit_at_1']), 'percent'],
        ['Hit@5', num(run['hit_at_5']), 'percent'],
        ['MRR', num(run['mrr']), 'decimal3'],
        ['Answered questions with an expected text', num(run['with_expected_answer']), 'integer'],
        ['Answers containing the expected text', num(run['answer_contains_rate']), 'percent'],
        ['Latency p50 (ms)', num(run['latency_p50_ms']), 'integer'],
        ['Latency p95 (ms)', num(run['latency_p95_ms']), 'integer'],
        ['Requests', num(run['requests']), 'integer'],
        ['Status requests (long poll)', num(run['status_requests']), 'integer'],
        ['Duration', num(run['duration_ms']), 'duration'],
        ['Error', text(run['error']), 'text'],
      ]
    : [];
  return figureSheet('Run', rows, { emptyNote: NO_RUN_NOTE });
}

const COMPARED_COLUMNS: ColumnSpec[] = [
  col('which', 'Run', 'text'),
  col('run', 'Run id', 'text'),
  col('started', 'Started', 'datetime'),
  col('questions', 'Questions', 'integer'),
  col('failures', 'Failed', 'integer'),
  col('hit1', 'Hit@1', 'percent'),
  col('hit5', 'Hit@5', 'percent'),
  col('mrr', 'MRR', 'decimal3'),
  col('contains', 'Answers with the expected text', 'percent'),
  col('p50', 'Latency p50 (ms)', 'integer'),
  col('p95', 'Latency p95 (ms)', 'integer'),
];

/** The figures of a run in the compared sheet, after its id, in column order. */
const RUN_FIGURES = [
  'started_at',
  'questions',
  'failures',
  'hit_at_1',
  'hit_at_5',
  'mrr',
  'answer_contains_rate',
  'latency_p50_ms',
  'latency_p95_ms',
] as const;

/** This run, the previous one and the change (negative: a drop), one figure per column. */
function comparedSheet(run: PlainRow | undefined): SheetSource {
  const hasPrevious = run !== undefined && run['previous_run_id'] !== null;
  const diff = (a: PlainValue | undefined, b: PlainValue | undefined) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : null;
  /** One run's figures, read from the columns of `run` named with `prefix` (the run's own, or previous_). */
  const figuresOf = (label: string, prefix: '' | 'previous_'): CellInput[] => [
    label,
    text(run?.[`${prefix}run_id`]),
    ...RUN_FIGURES.map((figure) => num(run?.[`${prefix}${figure}`])),
  ];
  const rows: CellInput[][] =
    run && hasPrevious
      ? [
          figuresOf('This run', ''),
          figuresOf('Previous run', 'previous_'),
          [
            'Change',
            null,
            null,
            diff(run['questions'], run['previous_questions']),
            num(run['failures_change']),
            num(run['hit_at_1_change']),
            num(run['hit_at_5_change']),
            num(run['mrr_change']),
            num(run['answer_contains_rate_change']),
            diff(run['latency_p50_ms'], run['previous_latency_p50_ms']),
            diff(run['latency_p95_ms'], run['previous_latency_p95_ms']),
          ],
        ]
      : [];
  return {
    name: 'Compared with previous',
    columns: COMPARED_COLUMNS,
    rows: [rows],
    autoFilter: false,
    emptyNote: run
      ? 'No earlier normally finished run of this knowledge base project and question set'
      : NO_RUN_NOTE,
  };
}

function worstSheet(rows: PlainRow[]): SheetSource {
  return {
    name: 'Worst questions',
    columns: [
      col('seq', '#', 'integer'),
      col('question', 'Question', 'text', 60),
      col('status', 'Status', 'text'),
      col('errorCode', 'Error code', 'text'),
      col('error', 'Error', 'text', 60),
      col('hitRank', 'Hit rank', 'integer'),
      col('expected', 'Expected sources', 'text', 40),
      col('top', 'Top chunk source', 'text', 40),
      col('contains', 'Answer has the expected text', 'boolean'),
      col('answer', 'Answer', 'text', 80),
      col('latency', 'Latency (ms)', 'integer'),
      col('previousHitRank', 'Previous hit rank', 'integer'),
      col('previousStatus', 'Previous status', 'text'),
      col('regressed', 'Worse than before', 'boolean'),
    ],
    rows: [
      rows.map((r) => [
        r['seq'],
        r['question'],
        r['status'],
        r['error_code'],
        r['error'],
        r['hit_rank'],
        r['expected_sources'],
        r['top_source'],
        r['answer_contains'],
        r['answer'],
        r['latency_ms'],
        r['previous_hit_rank'],
        r['previous_status'],
        r['regressed'],
      ]),
    ],
    emptyNote: 'Every question was answered and found its expected source first',
  };
}

function regressionsSheet(rows: PlainRow[], hasPrevious: boolean): SheetSource {
  return {
    name: 'Worse than before',
    columns: [
      col('seq', '#', 'integer'),
      col('question', 'Question', 'text', 60),
      col('previousHitRank', 'Previous hit rank', 'integer'),
      col('hitRank', 'Hit rank', 'integer'),
      col('previousStatus', 'Previous status', 'text'),
      col('status', 'Status', 'text'),
      col('previousContains', 'Had the expected text', 'boolean'),
      col('contains', 'Has the expected text', 'boolean'),
      col('previousLatency', 'Previous latency (ms)', 'integer'),
      col('latency', 'Latency (ms)', 'integer'),
    ],
    rows: [
      rows.map((r) => [
        r['seq'],
        r['question'],
        r['previous_hit_rank'],
        r['hit_rank'],
        r['previous_status'],
        r['status'],
        r['previous_answer_contains'],
        r['answer_contains'],
        r['previous_latency_ms'],
        r['latency_ms'],
      ]),
    ],
    emptyNote: hasPrevious
      ? 'No question did worse than in the previous run'
      : 'No earlier normally finished run of this knowledge base project and question set',
  };
}

function runsSheet(rows: PlainRow[]): SheetSource {
  return {
    name: 'Runs',
    columns: [
      col('run', 'Run id', 'text'),
      col('started', 'Started', 'datetime'),
      col('project', 'Project', 'text'),
      col('source', 'Questions from', 'text'),
      col('mode', 'Generation', 'text'),
      col('status', 'Status', 'text'),
      col('note', 'Note', 'text', 50),
      col('questions', 'Questions', 'integer'),
      col('failures', 'Failed', 'integer'),
      col('hit1', 'Hit@1', 'percent'),
      col('hit5', 'Hit@5', 'percent'),
      col('mrr', 'MRR', 'decimal3'),
      col('contains', 'Answers with the expected text', 'percent'),
      col('p50', 'Latency p50 (ms)', 'integer'),
      col('p95', 'Latency p95 (ms)', 'integer'),
      col('previous', 'Previous run', 'text'),
      col('hit5Change', 'Hit@5 change', 'percent'),
      col('mrrChange', 'MRR change', 'decimal3'),
      col('containsChange', 'Expected text change', 'percent'),
      col('failuresChange', 'Failed change', 'integer'),
    ],
    rows: [
      rows.map((r) => [
        r['run_id'],
        r['started_at'],
        r['project_name'],
        r['question_source'],
        r['mode'],
        r['status'],
        r['note'],
        r['questions'],
        r['failures'],
        r['hit_at_1'],
        r['hit_at_5'],
        r['mrr'],
        r['answer_contains_rate'],
        r['latency_p50_ms'],
        r['latency_p95_ms'],
        r['previous_run_id'],
        r['hit_at_5_change'],
        r['mrr_change'],
        r['answer_contains_rate_change'],
        r['failures_change'],
      ]),
    ],
    emptyNote: 'No finished kb eval run started in this period',
  };
}

/** A run's label on a chart axis: its start, `MM-DD HH:MM` (UTC, as stored). */
function runLabel(startedAt: PlainValue | undefined): string {
  return typeof startedAt === 'number'
    ? new Date(startedAt).toISOString().slice(5, 16).replace('T', ' ')
    : '?';
}

export function kbEvalCharts(
  run: PlainRow | undefined,
  ranks: PlainRow | undefined,
  allRuns: PlainRow[],
): ChartSpec[] {
  const charts: ChartSpec[] = [];
  // a stopped or failed run's figures cover only what it asked: not drawn beside the comparable ones
  const runs = allRuns.filter((r) => r['finished_normally'] !== false);
  if (runs.length > 0) {
    const series = (name: string, key: string, onSecondAxis = false) => {
      const values = runs.map((r) => num(r[key]));
      return {
        name,
        values: values.map((v) => v ?? 0),
        notApplicable: values.map((v) => v === null),
        onSecondAxis,
      };
    };
    charts.push({
      title: 'Figures run by run',
      kind: 'line',
      categories: runs.map((r) => runLabel(r['started_at'])),
      categoryAxis: 'Run started (UTC)',
      // hit rates and the expected text are shares of the questions; MRR is a mean of 1/rank, 0 to 1
      valueAxis: { title: 'Share of questions', format: 'percent' },
      secondValueAxis: { title: 'MRR (0–1)', format: 'ratio' },
      series: [
        series('Hit@1', 'hit_at_1'),
        series('Hit@5', 'hit_at_5'),
        series('Expected text', 'answer_contains_rate'),
        series('MRR', 'mrr', true),
      ],
    });
  }
  if (run && ranks) {
    const buckets: [string, string][] = [
      ['1', 'rank_1'],
      ['2', 'rank_2'],
      ['3', 'rank_3'],
      ['4', 'rank_4'],
      ['5', 'rank_5'],
      ['below 5', 'below_5'],
      ['not found', 'not_found'],
      ['retrieval failed', 'retrieval_failed'],
    ];
    charts.push({
      title: 'Rank of the first expected source (questions with expected sources)',
      kind: 'bar',
      categories: buckets.map(([label]) => label),
      categoryAxis: 'Rank of the first expected source',
      valueAxis: { title: 'Questions' },
      series: [{ name: 'Questions', values: buckets.map(([, key]) => num(ranks[key]) ?? 0) }],
    });
  }
  return charts;
}

export const kbEvalReport: ReportDefinition = {
  id: 'kb-eval',
  title: 'Knowledge base evaluation',
  description:
    'the latest normally finished kb eval run of the period: hit@1/5, MRR, expected text, failures, latency, worst questions, compared with the previous run of the same question set',
  mode: 'memory',
  formats: ['xlsx', 'html'],
  reads: 'kb',
  defaultPeriod: 'latest',
  latestSql: 'latest-run',
  async build(context) {
    const run = (await context.querySql('run'))[0];
    const runId = run ? String(run['run_id']) : '';
    const [worst, regressions, ranks, runs] = run
      ? await Promise.all([
          context.querySql('worst-questions', { run_id: runId }),
          context.querySql('regressions', { run_id: runId }),
          context.querySql('hit-ranks', { run_id: runId }),
          context.querySql('runs'),
        ])
      : [[], [], [], await context.querySql('runs')];
    const hasPrevious = run !== undefined && run['previous_run_id'] !== null;
    return {
      sheets: [
        runSheet(run, context.tz),
        comparedSheet(run),
        worstSheet(worst),
        regressionsSheet(regressions, hasPrevious),
        runsSheet(runs),
      ],
      charts: kbEvalCharts(run, ranks[0], runs),
      // no run at all started in the period: "No data for <period>", not "every question was answered"
      empty: runs.length === 0,
      noDataReason: 'no kb eval run started in it (run reporter-etl kb eval, or widen --from / --to)',
    };
  },
};
