// The summary's first page, what a bot owner asks first: sessions, clients, messages and the unrecognised,
// transfer and delivery shares, each beside the previous period's and the change (relative for counts, in
// percentage points for shares), the sessions over the period, and the top 5 unhandled topics of the stored
// `unhandled` run with their trend. No figure without its basis: a previous figure and a change only where the
// previous period is covered by synced data, else `n/a` and a note saying how much of it is.
import type { StatsReport } from '../../src/analysis/stats/stats-report.js';
import { coverageNote, type DataBasis, isCovered } from '../../src/report/data-basis.js';
import { describeDates, localMinute } from '../../src/report/describe-period.js';
import type {
  CellFormat,
  CellInput,
  ChartSpec,
  CoverBlock,
  CoverPage,
  SheetSource,
} from '../../src/report/report-definition.js';
import type { PlainRow } from '../../src/warehouse/warehouse.js';
import { deliveryShare } from './tables.js';

/** Topics of the stored unhandled run on the scorecard. */
export const SCORECARD_TOPICS = 5;

export interface ScorecardInput {
  stats: StatsReport;
  /** The previous period's statistics; null when that period is not covered by synced data. */
  previous: StatsReport | null;
  period: { from: number; to: number };
  previousPeriod: { from: number; to: number };
  basis: DataBasis;
  chart: ChartSpec;
  /** The stored unhandled run's top clusters (unhandled-top.sql); no row: no run stored for the period. */
  unhandled: readonly PlainRow[];
  /** The command that stores the unhandled run of the period. */
  unhandledCommand: string;
}

type Kind = 'count' | 'share';

export function scorecard(input: ScorecardInput): CoverPage {
  const { stats, basis, period, previousPeriod, chart } = input;
  const tz = stats.timeZone;
  const synced =
    basis.dataFrom === null || basis.syncedTo === null
      ? ''
      : `; synced data from ${localMinute(basis.dataFrom, tz)} to ${localMinute(basis.syncedTo, tz)}`;
  const blocks: CoverBlock[] = [
    {
      note: `This period ${describeDates(period.from, period.to, tz)}, the previous period ${describeDates(previousPeriod.from, previousPeriod.to, tz)} (${tz})${synced}.`,
    },
    { table: figuresTable(input) },
    { chart },
    topicsBlock(input),
  ];
  return { name: 'Scorecard', blocks };
}

/** The six figures, this period beside the previous one, with the change. */
function figuresTable(input: ScorecardInput): SheetSource {
  const { stats: s, previous: p } = input;
  const figures: [string, number | null, number | null | undefined, Kind][] = [
    ['Sessions', s.totals.sessions, p?.totals.sessions, 'count'],
    ['Clients', s.totals.uniqueClients, p?.totals.uniqueClients, 'count'],
    ['Messages', s.totals.messages, p?.totals.messages, 'count'],
    ['Unrecognised share', s.intents.unrecognisedShare, p?.intents.unrecognisedShare, 'share'],
    ['Transfer share', s.totals.transferShare, p?.totals.transferShare, 'share'],
    ['Delivery share (delivered or read)', deliveryShare(s), p ? deliveryShare(p) : undefined, 'share'],
  ];
  const footnotes: string[] = [];
  if (p === null)
    footnotes.push(
      `n/a: ${coverageNote(input.basis, 'the previous period', input.previousPeriod.from, input.previousPeriod.to)}.`,
    );
  const rows: CellInput[][] = [];
  const cellFormats: (CellFormat | undefined)[][] = [];
  let undefinedChange = false;
  for (const [name, value, before, kind] of figures) {
    const format: CellFormat = kind === 'count' ? 'integer' : 'percent';
    const change = p === null ? null : changeOf(value, before ?? null, kind);
    if (p !== null && change === null) undefinedChange = true;
    rows.push([name, value, p === null ? 'n/a' : (before ?? null), change ?? 'n/a']);
    cellFormats.push([undefined, format, format, kind === 'count' ? 'percentChange' : 'pointsChange']);
  }
  if (undefinedChange)
    footnotes.push('n/a: no figure to compare with (none in the previous period, or no denominator).');
  footnotes.push('Change: relative for counts (%), in percentage points (pp) for shares.');
  return {
    name: 'Figures',
    columns: [
      { key: 'figure', header: 'Figure', format: 'text' },
      { key: 'value', header: 'This period', format: 'integer' },
      { key: 'previous', header: 'Previous period', format: 'integer' },
      { key: 'change', header: 'Change', format: 'percentChange' },
    ],
    rows: [rows],
    cellFormats,
    autoFilter: false,
    footnotes,
  };
}

/** A count's relative change, a share's difference; null when there is nothing to compare with. */
function changeOf(value: number | null, before: number | null, kind: Kind): number | null {
  if (value === null || before === null) return null;
  if (kind === 'share') return value - before;
  return before > 0 ? value / before - 1 : null;
}

/** The top topics of the stored unhandled run with their trend, or a line saying how to store one. */
function topicsBlock(input: ScorecardInput): CoverBlock {
  const run = input.unhandled[0];
  if (run === undefined)
    return {
      note: `Unhandled topics: no unhandled run is stored for this period; run ${input.unhandledCommand}`,
    };
  const clusters = input.unhandled.filter((r) => r['rank'] !== null).slice(0, SCORECARD_TOPICS);
  const previousFrom = Number(run['previous_from']);
  const periodFrom = Number(run['period_from']);
  const covered = isCovered(input.basis, previousFrom, periodFrom);
  const footnotes = covered
    ? ['Trend: messages against the previous period (new: none then).']
    : [`n/a: ${coverageNote(input.basis, 'the previous period', previousFrom, periodFrom)}.`];
  const trend = (r: PlainRow): CellInput => {
    if (!covered) return 'n/a';
    return r['trend'] === null ? 'new' : (r['trend'] as number);
  };
  return {
    table: {
      name: `Top ${SCORECARD_TOPICS} unhandled topics`,
      columns: [
        { key: 'label', header: 'Topic (most central phrasing)', format: 'text' },
        { key: 'messages', header: 'Messages', format: 'integer' },
        { key: 'previous', header: 'Previous period', format: 'integer' },
        { key: 'trend', header: 'Trend', format: 'percentChange' },
      ],
      rows: [
        clusters.map((r) => [
          `${r['rank']}. ${r['label']}`,
          r['messages'],
          covered ? r['previous_messages'] : 'n/a',
          trend(r),
        ]),
      ],
      autoFilter: false,
      emptyNote: 'The stored run of this period has no cluster.',
      footnotes,
    },
  };
}
