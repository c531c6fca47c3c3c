// What a report of reports/<id>/ declares: its title, its sheets (columns with headers, formats and widths,
// and where the rows come from: a streamed SQL file or rows computed from the statistics) and its charts.
// The writers (streaming for large sheets, in memory for reports with charts) only ever read this shape.
import type { PeriodUnit, StatsReport } from '../analysis/stats/stats-report.js';
import type { PlainValue, SqlParam, StreamedRows, Warehouse } from '../warehouse/warehouse.js';
import type { DataBasis } from './data-basis.js';

/**
 * How a column's cells are written and shown. `datetime` takes epoch ms and shows the local time in the
 * report's zone; `duration` takes milliseconds and shows [h]:mm:ss; `percent` takes a fraction (0.25 → 25.0 %).
 */
export type CellFormat =
  | 'text'
  | 'integer'
  /** An identifier (a source id, a key id): a whole number shown as is, without thousands separators. */
  | 'id'
  | 'number'
  | 'decimal3'
  | 'percent'
  | 'datetime'
  | 'date'
  | 'duration'
  | 'boolean'
  /** A platform code (FAILED_TO_INGEST): shown in words ("Failed to ingest"); the HTML keeps the code as its title. */
  | 'code'
  /** A change of a count, signed: +12, -3. */
  | 'countChange'
  /** A relative change (a fraction), signed: +8.3%. */
  | 'percentChange'
  /** The change of a share or rate (a difference of two fractions), in percentage points: +1.2 pp. */
  | 'pointsChange'
  /** A change in milliseconds, signed with its unit: +120 ms. */
  | 'msChange'
  /** The change of a 0–1 figure that is not a share (MRR), signed: +0.012. */
  | 'decimal3Change';

export interface ColumnSpec {
  /** The field of the row (a SQL column name, or a key of a computed row). */
  key: string;
  header: string;
  format: CellFormat;
  /**
   * Width in characters; default from the format. In-memory reports size columns from their content and
   * take this as the most a column gets (the header always fits).
   */
  width?: number;
  /** Horizontal alignment of the header and the cells; default from the format (right over numbers). */
  align?: 'left' | 'right';
  /**
   * False: left out of the printed page (in the workbook only), for a figure an analyst does not need on
   * paper; such columns come last (the print area is the columns before the first of them).
   */
  print?: false;
  /**
   * True for a long text (a question, an answer): it wraps inside the column's width, so that it prints whole
   * instead of running over the next cells and being cut there. The in-memory writer wraps any text longer than
   * its column without it.
   */
  wrap?: boolean;
  /**
   * Why a cell of this column can be n/a (a figure that does not apply, such as telegram's read receipts):
   * an empty cell then shows `n/a` and the table says why in a footnote; a column n/a on every row is left
   * out, its footnote saying so (not-applicable.ts).
   */
  notApplicable?: string;
}

/** A cell's value before formatting: what the warehouse returns (no bigint) or what the code computes. */
export type CellInput = PlainValue | undefined;

/** A sheet as the writers take it: columns and its rows, chunk by chunk (each row in column order). */
export interface SheetSource {
  /** At most 31 characters; a sheet continued past Excel's row limit is named "<name> (2)", ... */
  name: string;
  columns: ColumnSpec[];
  rows: AsyncIterable<CellInput[][]> | Iterable<CellInput[][]>;
  /** Shown in the first data row when the sheet has no row (default: "No data for <period>"). */
  emptyNote?: string;
  /**
   * Per-cell formats where a row's cells differ from their column's (a key/value sheet, whose values are
   * counts, shares and times): `cellFormats[row][column]`, undefined for the column's own.
   */
  cellFormats?: readonly (readonly (CellFormat | undefined)[] | undefined)[];
  /** False: no autofilter (a key/value sheet such as the KPIs); default true. */
  autoFilter?: boolean;
  /** Lines printed under the table (what n/a means, what a figure counts), each one sentence. */
  footnotes?: readonly string[];
}

/** `sankey`: a flow chart drawn from the spec's `flow` (its categories and series are left empty). */
export type ChartKind = 'line' | 'bar' | 'hbar' | 'sankey';

/**
 * A flow chart's nodes and links (a Sankey diagram, left to right by column): every link joins two listed
 * nodes of consecutive columns, so the flow has no cycle even where the states it shows do.
 */
export interface ChartFlow {
  /** `id` unique; `label` what the node shows, with `value` (default: the larger of its links' in and out). */
  nodes: { id: string; label: string; column: number; value?: number }[];
  links: { from: string; to: string; value: number }[];
}

/**
 * How a value axis and its values are printed. `integer`: counts (8,000; the axis from 0 to a round number
 * above the largest value); `percent`: a share from 0 to 1 shown as 0–100 % on an axis from 0 % to 100 %;
 * `ratio`: a figure from 0 to 1 that is not a share (MRR) shown as 0.00–1.00 on an axis from 0 to 1.
 */
export type ChartValueFormat = 'integer' | 'percent' | 'ratio';

export interface ChartValueAxis {
  /** What the values measure, with their unit when not a count: "Sessions", "Share of questions (%)". */
  title: string;
  /** Default `integer`. */
  format?: ChartValueFormat;
}

export interface ChartSeries {
  name: string;
  values: number[];
  /** Per value: true where the figure does not apply (drawn as "n/a", no bar; its value is ignored). */
  notApplicable?: boolean[];
  /** True: drawn against the chart's second value axis (on the right), for a figure in another unit. */
  onSecondAxis?: boolean;
  /**
   * True: drawn apart from the other series (a line chart's partial periods): every value a marker, not
   * joined to the whole periods' line, in the legend under its own name.
   */
  apart?: boolean;
}

export interface ChartSpec {
  title: string;
  kind: ChartKind;
  /** Category labels (x axis of line and bar charts, y axis of horizontal bars); every one is shown. */
  categories: string[];
  /** The category axis's title: what the categories are ("Day", "Channel", "Rank"). */
  categoryAxis: string;
  valueAxis: ChartValueAxis;
  /** A second value axis, on the right, for the series marked `onSecondAxis` (e.g. MRR beside hit rates). */
  secondValueAxis?: ChartValueAxis;
  series: ChartSeries[];
  /** The nodes and links of a `sankey` chart. */
  flow?: ChartFlow;
}

/** What a report builds its sheets from; the period and the selection are already checked. */
export interface ReportContext {
  warehouse: Warehouse;
  /** Epoch ms, inclusive / exclusive. */
  from: number;
  to: number;
  projects: readonly string[];
  tz: string;
  /** The statistics of the period (computed on first use; by day in `tz`, or by `period` when given). */
  stats(period?: PeriodUnit): Promise<StatsReport>;
  /**
   * Streams one of the report's own .sql files (reports/<id>/<name>.sql) with the standard parameters
   * ($projects, $from, $to, $tz), one slice of the period at a time ($from/$to are the slice's; default one
   * day), so that a sorted export never makes DuckDB sort the whole period at once.
   */
  streamSql(
    name: string,
    options?: { extra?: Record<string, SqlParam>; sliceMs?: number },
  ): AsyncIterable<StreamedRows>;
  /** Reads one of the report's own .sql files whole (for small lookups such as the sessionData keys). */
  querySql(name: string, extra?: Record<string, SqlParam>): Promise<Record<string, PlainValue>[]>;
  /** The statistics of another period (the previous one), by `period` in `tz`. */
  statsOf(from: number, to: number, period?: PeriodUnit): Promise<StatsReport>;
  /** What the warehouse holds for the report: from when, up to when, when it was last synced (data-basis.ts). */
  basis(): Promise<DataBasis>;
  /** The options asking for this report's period, in local dates: `--from 2026-10-31 --to 2026-11-01 --tz Europe/Moscow`. */
  periodOptions: string;
}

/** A block of a cover page: a small table (its name its title), a chart or one sentence. */
export type CoverBlock = { table: SheetSource } | { chart: ChartSpec } | { note: string };

/**
 * The page a report opens with (the summary's scorecard): small tables, a chart and notes one under the
 * other, printed on one page (the workbook's first sheet, A4 portrait) and at the top of the HTML page.
 * For reports written in memory.
 */
export interface CoverPage {
  /** The sheet's name (at most 31 characters). */
  name: string;
  blocks: CoverBlock[];
}

export interface BuiltReport {
  /** Printed first: the workbook's first sheet, the top of the HTML page. */
  cover?: CoverPage;
  sheets: SheetSource[];
  charts?: ChartSpec[];
  /**
   * True when the period holds none of the report's data (no session, no snapshot, no run): the writer then
   * drops every row and chart and each sheet says "No data for <period>" instead of its own note. Default:
   * empty when no sheet has a row.
   */
  empty?: boolean;
  /** With `empty`: why, after the note ("no kb sync snapshot before its end"). */
  noDataReason?: string;
  /** With `empty`: the command that brings the data, its period in local dates (`context.periodOptions`). */
  noDataCommand?: string;
}

/** The file formats a report can be written in: `xlsx` (every report) and `html` (one self-contained page). */
export type ReportFormat = 'xlsx' | 'html';

export interface ReportDefinition {
  /** The folder name under reports/. */
  id: string;
  title: string;
  /** One line for `report --list`. */
  description: string;
  /**
   * `stream`: sheets are written row by row (any size, no images); `memory`: the workbook is built in memory
   * (small reports), which is what allows chart images.
   */
  mode: 'stream' | 'memory';
  /**
   * The formats it can be written in (default: xlsx only). `html` is for small reports (`memory`): the page
   * holds every row, and it is written from the same built sheets and charts as the workbook.
   */
  formats?: readonly ReportFormat[];
  /**
   * What it reads: `reporter` (default) the synced Reporter projects, chosen with --project; `kb` the knowledge
   * base's tables (kb sync, kb eval), to which --project does not apply (refused) and whose heading names no
   * Reporter project.
   */
  reads?: 'reporter' | 'kb';
  /**
   * Its period when neither --from nor --to is given: `yesterday` (default), `today` (from the start of
   * today on: a report of the latest state, e.g. the snapshot a `kb sync` just took), or `latest` (the local
   * day holding the instant `latestSql` names; yesterday when it names none).
   */
  defaultPeriod?: 'yesterday' | 'today' | 'latest';
  /** With `defaultPeriod: 'latest'`: one of its .sql files answering one row, column `latest` (epoch ms or NULL). */
  latestSql?: string;
  build(context: ReportContext): Promise<BuiltReport>;
}
