// The `unhandled` report: what people asked that the bot could not handle, as `reporter-etl unhandled` stored
// it for exactly the report's period (docs/unhandled.md): its clusters (rank, id, label, messages, the
// previous period's, trend, share, clients, sessions sent to an agent, channels, examples), the coverage of
// the top clusters (the knowledge base's best source, score, answerable, the Prompter's suggestions),
// the run's figures and a chart of the top 10 clusters this period against the previous one. The messages that
// joined no topic are "other": the last row of the clusters and a figure of the run. It reads the stored run, never
// computes one (a report only reads): with none for the period it is empty and says which command makes it.
// A trend is shown only where the run's previous period is covered by synced data.
// Small: written in memory with its chart, or (--format html) as one self-contained page.

import { readWarehouseNames } from '../../src/analysis/stats/compute-stats.js';
import { coverageNote, isCovered } from '../../src/report/data-basis.js';
import { describePeriod } from '../../src/report/describe-period.js';
import { type Figure, figureSheet } from '../../src/report/figure-sheet.js';
import type {
  ChartSpec,
  ColumnSpec,
  ReportContext,
  ReportDefinition,
  SheetSource,
} from '../../src/report/report-definition.js';
import type { PlainRow, PlainValue } from '../../src/warehouse/warehouse.js';

/** Clusters drawn on the chart. */
export const CHART_CLUSTERS = 10;
/** A label on the chart's category axis is cut to this many characters (the sheet has it whole). */
const CHART_LABEL = 40;

const col = (key: string, header: string, format: ColumnSpec['format'], width?: number): ColumnSpec =>
  width === undefined ? { key, header, format } : { key, header, format, width };

const num = (v: PlainValue | undefined): number | null => (typeof v === 'number' ? v : null);
const text = (v: PlainValue | undefined): string | null => (v === null || v === undefined ? null : String(v));

/** On paper a cluster shows this many of its examples, each cut at EXAMPLE_CHARACTERS (the whole ones kept). */
const PRINTED_EXAMPLES = 3;
const EXAMPLE_CHARACTERS = 60;

/**
 * The clusters' columns. On paper the table fits one page: the cluster id (an id no reader copies from paper)
 * and the whole examples are the workbook's last columns, not printed and not on the HTML page; the printed
 * Examples are the first three, each cut with "…".
 */
const CLUSTER_COLUMNS: ColumnSpec[] = [
  col('rank', 'Rank', 'integer'),
  { ...col('label', 'Label (most central phrasing)', 'text', 36), wrap: true },
  col('messages', 'Messages', 'integer'),
  col('previous', 'Previous period', 'integer'),
  col('trend', 'Trend', 'percentChange'),
  col('share', 'Share of unrecognised', 'percent'),
  col('clients', 'Clients', 'integer'),
  col('agent', 'Sessions sent to an agent', 'integer'),
  { ...col('channels', 'Channels', 'text', 18), wrap: true },
  { ...col('examples', 'Examples (three, cut)', 'text', 60), wrap: true },
  { ...col('id', 'Cluster id', 'text'), print: false },
  { ...col('allExamples', 'Examples, whole', 'text', 60), wrap: true, print: false },
];

/** The first PRINTED_EXAMPLES of " | "-joined examples, each cut at EXAMPLE_CHARACTERS with "…". */
function printedExamples(examples: PlainValue | undefined): string | null {
  if (examples === null || examples === undefined) return null;
  return String(examples)
    .split(' | ')
    .slice(0, PRINTED_EXAMPLES)
    .map((e) => (e.length > EXAMPLE_CHARACTERS ? `${e.slice(0, EXAMPLE_CHARACTERS - 1).trimEnd()}…` : e))
    .join(' | ');
}

/** The coverage of the top clusters: a sheet of its own, so that each fits a 1280 px page as columns. */
const COVERAGE_COLUMNS: ColumnSpec[] = [
  col('rank', 'Rank', 'integer'),
  col('id', 'Cluster id', 'text'),
  { ...col('label', 'Central question (label)', 'text', 40), wrap: true },
  col('source', 'Knowledge base: best source', 'text', 30),
  col('score', 'Score', 'decimal3'),
  col('terms', 'Terms found', 'percent'),
  col('answerable', 'Answerable', 'boolean'),
  col('requests', 'Prompter requests', 'integer'),
  col('suggestions', 'Prompter suggestions', 'integer'),
  col('intent', 'Prompter top intent', 'text', 30),
];

/** The label of the last row of the Clusters sheet: what joined no topic, said plainly. */
export const OTHER_LABEL = '(other: questions that joined no topic)';

/**
 * The clusters, then "other"; the previous period's messages and the trend only where that period is covered
 * by synced data (`n/a` and a footnote saying how much of it is otherwise: a trend against days never synced
 * is none).
 */
function clustersSheet(rows: PlainRow[], run: PlainRow | undefined, previous: PreviousBasis): SheetSource {
  const other = run === undefined || rows.length === 0 ? [] : [otherRow(run)];
  return {
    name: 'Clusters',
    columns: CLUSTER_COLUMNS,
    rows: [
      [
        ...rows.map((r) => [
          r['rank'],
          r['label'],
          r['messages'],
          previous.covered ? r['previous_messages'] : 'n/a',
          !previous.covered ? 'n/a' : r['trend'] === null ? 'new' : r['trend'],
          r['share'],
          r['clients'],
          r['agent_sessions'],
          r['channels'],
          printedExamples(r['examples']),
          r['cluster_id'],
          r['examples'],
        ]),
        ...other,
      ],
    ],
    emptyNote: 'No cluster: no group of unrecognised messages reached the run’s minimum size',
    footnotes: [
      previous.covered
        ? 'Trend: messages against the previous period (new: none then).'
        : `Previous period and trend n/a: ${previous.note}.`,
      `Examples: the first ${PRINTED_EXAMPLES}, each cut at ${EXAMPLE_CHARACTERS} characters; the workbook's last columns hold the cluster id and every example whole.`,
    ],
  };
}

/** The row of "other": its messages and share; no id, no trend (it is no topic). */
function otherRow(run: PlainRow): PlainValue[] {
  const messages = num(run['other_messages']);
  const unrecognised = num(run['unrecognised']);
  const share =
    messages === null || unrecognised === null || unrecognised === 0 ? null : messages / unrecognised;
  return [null, OTHER_LABEL, messages, null, null, share, null, null, null, null, 'other', null];
}

/** Whether the run's previous period is covered by synced data, and how much of it is when not. */
interface PreviousBasis {
  covered: boolean;
  note: string;
}

async function previousBasis(context: ReportContext, run: PlainRow | undefined): Promise<PreviousBasis> {
  if (run === undefined) return { covered: false, note: '' };
  const basis = await context.basis();
  const [from, to] = [Number(run['previous_from']), Number(run['period_from'])];
  return { covered: isCovered(basis, from, to), note: coverageNote(basis, 'the previous period', from, to) };
}

/** The clusters whose coverage was computed (the command's top clusters), biggest first. */
function coverageSheet(rows: PlainRow[]): SheetSource {
  return {
    name: 'Coverage',
    columns: COVERAGE_COLUMNS,
    rows: [
      rows
        .filter((r) => r['covered'] === true)
        .map((r) => [
          r['rank'],
          r['cluster_id'],
          r['label'],
          r['best_source_name'],
          r['score'],
          r['terms_found'],
          r['answerable'],
          r['prompter_requests'],
          r['prompter_suggestions'],
          r['prompter_top_intent'],
        ]),
    ],
    emptyNote: 'No coverage computed for this run (reporter-etl unhandled computes it for its top clusters)',
  };
}

/** Key/value: what the run counted and over what. */
function runSheet(run: PlainRow, clusters: PlainRow[], tz: string): SheetSource {
  const asked = clusters.filter((c) => c['answerable'] !== null);
  const clustered = num(run['clustered']);
  const unrecognised = num(run['unrecognised']);
  const rows: Figure[] = [
    ['Run', text(run['run_id']), 'text'],
    ['Project', run['project'] === '' ? 'every project' : text(run['project']), 'text'],
    ['Channel', 'every channel', 'text'],
    ['Catch-all class', text(run['catch_all_class']), 'text'],
    ['Period', describePeriod(Number(run['period_from']), Number(run['period_to']), tz), 'text'],
    ['Previous period', describePeriod(Number(run['previous_from']), Number(run['period_from']), tz), 'text'],
    [`Computed (${tz})`, num(run['computed_at']), 'datetime'],
    ['Unrecognised messages', unrecognised, 'integer'],
    ['Unrecognised messages, previous period', num(run['previous_unrecognised']), 'integer'],
    ['Messages in a cluster', clustered, 'integer'],
    [
      'Share in a cluster',
      unrecognised === null || clustered === null || unrecognised === 0 ? null : clustered / unrecognised,
      'percent',
    ],
    ['Other: messages that joined no topic', num(run['other_messages']), 'integer'],
    [
      'Other: share',
      unrecognised === null || unrecognised === 0 ? null : (num(run['other_messages']) ?? 0) / unrecognised,
      'percent',
    ],
    ['Vectors', text(run['vectors']) ?? 'signatures (before issue 48)', 'text'],
    ['Clusters', num(run['clusters']), 'integer'],
    ['Top clusters asked to the knowledge base', asked.length, 'integer'],
    ['Of them answerable', asked.filter((c) => c['answerable'] === true).length, 'integer'],
  ];
  return figureSheet('Run', rows);
}

/**
 * The top clusters' messages this period beside the previous period's (their size and their trend); the
 * previous period's only when it is covered by synced data.
 */
export function unhandledChart(clusters: PlainRow[], previousCovered = true): ChartSpec[] {
  const top = clusters.slice(0, CHART_CLUSTERS);
  if (top.length === 0) return [];
  const label = (r: PlainRow) => {
    const full = `${r['rank']}. ${r['label']}`;
    return full.length > CHART_LABEL ? `${full.slice(0, CHART_LABEL - 1)}…` : full;
  };
  return [
    {
      title: previousCovered
        ? `Top ${top.length} clusters: messages this period and the previous one`
        : `Top ${top.length} clusters: messages this period (the previous period is not synced)`,
      kind: 'hbar',
      categories: top.map(label),
      categoryAxis: 'Cluster (rank. label)',
      valueAxis: { title: 'Messages', format: 'integer' },
      series: [
        { name: 'This period', values: top.map((r) => num(r['messages']) ?? 0) },
        ...(previousCovered
          ? [{ name: 'Previous period', values: top.map((r) => num(r['previous_messages']) ?? 0) }]
          : []),
      ],
    },
  ];
}

/** The command that stores the run this report reads, for the note of an empty report (local dates). */
function commandFor(context: ReportContext, every: boolean): string {
  const project = every ? '' : ` --project ${context.projects[0] ?? ''}`;
  return `reporter-etl unhandled ${context.periodOptions}${project}`;
}

export const unhandledReport: ReportDefinition = {
  id: 'unhandled',
  title: 'Unhandled questions',
  description:
    'the clusters of the questions the bot could not handle, as reporter-etl unhandled stored them for the period: size, trend, share, clients, agent sessions, examples',
  mode: 'memory',
  formats: ['xlsx', 'html'],
  async build(context) {
    const all = (await readWarehouseNames(context.warehouse)).projects;
    const every = all.length > 0 && all.every((p) => context.projects.includes(p));
    const run = (await context.querySql('run', { every }))[0];
    const clusters = run ? await context.querySql('clusters', { run_id: String(run['run_id']) }) : [];
    const previous = await previousBasis(context, run);
    return {
      sheets: [
        clustersSheet(clusters, run, previous),
        coverageSheet(clusters),
        ...(run ? [runSheet(run, clusters, context.tz)] : []),
      ],
      charts: unhandledChart(clusters, previous.covered),
      empty: run === undefined,
      noDataReason: 'no unhandled run of this period and selection is stored',
      noDataCommand: commandFor(context, every),
    };
  },
};
