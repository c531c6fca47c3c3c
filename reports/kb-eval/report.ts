// The `kb-eval` report: the latest `kb eval` run started in the period that finished normally (its figures:
// hit@1, hit@5, MRR, answers with the expected text, failures, latency), compared with the previous such run of
// the same knowledge base project and question set, its worst questions and the questions that did worse than
// last time, and every run of the period side by side (stopped and failed runs flagged); charts of the figures run by run and of the run's hit ranks. Small: written
// in memory with chart images, or (--format html) as one self-contained page.

import { createZoneClock } from '../../src/report/cell-values.js';
import { type Figure, figureSheet } from '../../src/report/figure-sheet.js';
import type {
  CellFormat,
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

/**
 * The figures compared, one a row: its name, the column of kb_eval_run_changes (the previous run's prefixed
 * `previous_`), its format and its change's (signed with its unit: points for rates, ms for latencies).
 */
const COMPARED: readonly [string, string, CellFormat, CellFormat][] = [
  ['Questions', 'questions', 'integer', 'countChange'],
  ['Failed', 'failures', 'integer', 'countChange'],
  ['Hit@1', 'hit_at_1', 'percent', 'pointsChange'],
  ['Hit@5', 'hit_at_5', 'percent', 'pointsChange'],
  ['MRR', 'mrr', 'decimal3', 'decimal3Change'],
  ['Answers with the expected text', 'answer_contains_rate', 'percent', 'pointsChange'],
  ['Latency p50', 'latency_p50_ms', 'integer', 'msChange'],
  ['Latency p95', 'latency_p95_ms', 'integer', 'msChange'],
];

/** This run beside the previous one, a figure a row, with the change (negative: a drop). */
function comparedSheet(run: PlainRow | undefined, tz: string): SheetSource {
  const hasPrevious = run !== undefined && run['previous_run_id'] !== null;
  const diff = (a: PlainValue | undefined, b: PlainValue | undefined) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : null;
  const rows: CellInput[][] = [];
  const cellFormats: (CellFormat | undefined)[][] = [];
  if (run && hasPrevious) {
    rows.push(['Run id', text(run['run_id']), text(run['previous_run_id']), null]);
    cellFormats.push([undefined, 'text', 'text', 'text']);
    rows.push([`Started (${tz})`, num(run['started_at']), num(run['previous_started_at']), null]);
    cellFormats.push([undefined, 'datetime', 'datetime', 'text']);
    for (const [name, key, format, change] of COMPARED) {
      const [now, before] = [num(run[key]), num(run[`previous_${key}`])];
      rows.push([key.endsWith('_ms') ? `${name} (ms)` : name, now, before, diff(now, before)]);
      cellFormats.push([undefined, format, format, change]);
    }
  }
  return {
    name: 'Compared with previous',
    columns: [
      col('figure', 'Figure', 'text'),
      { ...col('run', 'This run', 'text'), align: 'right' },
      { ...col('previous', 'Previous run', 'text'), align: 'right' },
      { ...col('change', 'Change', 'text'), align: 'right' },
    ],
    rows: [rows],
    cellFormats,
    autoFilter: false,
    emptyNote: run
      ? 'No earlier normally finished run of this knowledge base project and question set to compare with'
      : NO_RUN_NOTE,
    footnotes: rows.length > 0 ? ['Change: in percentage points (pp) for rates, in ms for latencies.'] : [],
  };
}

/** The questions that did worst, each with its answer beside it (on the same printed page). */
function worstSheet(rows: PlainRow[]): SheetSource {
  return {
    name: 'Worst questions',
    columns: [
      col('seq', '#', 'integer'),
      wrapped(col('question', 'Question', 'text', 36)),
      wrapped(col('answer', 'Answer', 'text', 44)),
      col('hitRank', 'Hit rank', 'integer'),
      wrapped(col('expected', 'Expected sources', 'text', 24)),
      wrapped(col('top', 'Top chunk source', 'text', 24)),
      col('contains', 'Answer has the expected text', 'boolean'),
      col('status', 'Status', 'code'),
      col('latency', 'Latency (ms)', 'integer'),
      col('previousHitRank', 'Previous hit rank', 'integer'),
      col('previousStatus', 'Previous status', 'code'),
      col('regressed', 'Worse than before', 'boolean'),
      col('errorCode', 'Error code', 'code'),
      wrapped(col('error', 'Error', 'text', 30)),
    ],
    rows: [
      rows.map((r) => [
        r['seq'],
        r['question'],
        r['answer'],
        r['hit_rank'],
        r['expected_sources'],
        r['top_source'],
        r['answer_contains'],
        r['status'],
        r['latency_ms'],
        r['previous_hit_rank'],
        r['previous_status'],
        r['regressed'],
        r['error_code'],
        r['error'],
      ]),
    ],
    emptyNote: 'Every question was answered and found its expected source first',
  };
}

const wrapped = (column: ColumnSpec): ColumnSpec => ({ ...column, wrap: true });

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
      col('hit5Change', 'Hit@5 change', 'pointsChange'),
      col('mrrChange', 'MRR change', 'decimal3Change'),
      col('containsChange', 'Expected text change', 'pointsChange'),
      col('failuresChange', 'Failed change', 'countChange'),
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

/** A run's label on a chart axis: its start in the report's zone, `MM-DD HH:MM` (seconds when two share a minute). */
function runLabels(runs: readonly PlainRow[], tz: string): string[] {
  const local = createZoneClock(tz);
  const at = (r: PlainRow, end: number) => {
    const t = r['started_at'];
    return typeof t === 'number' ? new Date(local(t)).toISOString().slice(5, end).replace('T', ' ') : '?';
  };
  const minutes = runs.map((r) => at(r, 16));
  // two runs in one minute would be two identical ticks
  return new Set(minutes).size === minutes.length ? minutes : runs.map((r) => at(r, 19));
}

export function kbEvalCharts(
  run: PlainRow | undefined,
  ranks: PlainRow | undefined,
  allRuns: PlainRow[],
  tz = 'UTC',
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
      categories: runLabels(runs, tz),
      categoryAxis: `Run started (${tz})`,
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
        comparedSheet(run, context.tz),
        worstSheet(worst),
        regressionsSheet(regressions, hasPrevious),
        runsSheet(runs),
      ],
      charts: kbEvalCharts(run, ranks[0], runs, context.tz),
      // no run at all started in the period: "No data for <period>", not "every question was answered"
      empty: runs.length === 0,
      noDataReason: 'no kb eval run started in it',
      noDataCommand: 'reporter-etl kb eval --questions FILE (or report kb-eval with a wider --from / --to)',
    };
  },
};
