// Turns a report's ChartSpec into an Apache ECharts option: axis titles, every category of a bar chart
// labelled (wrapped or slanted when they do not fit side by side), a value axis in the values' own form
// (counts from 0; a share on a 0–100 % axis; a 0–1 figure such as MRR on a 0–1 axis, on the right when
// beside shares), series told apart by colour, marker and dash, a legend when there are several, and
// "n/a" where a figure does not apply. Pure: the renderer (render-chart-svg.ts) draws what this returns.
import type { EChartsOption } from 'echarts';
import type { MeasureText } from './font-text-width.js';
import type { ChartSeries, ChartSpec, ChartValueAxis, ChartValueFormat } from './report-definition.js';
import { sankeyOption } from './sankey-option.js';

export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 400;
export const CHART_FONT = 'DejaVu Sans';

/** What a value that does not apply shows (the sheets leave its cell empty). */
export const NOT_APPLICABLE = 'n/a';

const PALETTE = ['#1F4E79', '#ED7D31', '#70AD47', '#7030A0', '#5B9BD5', '#A5A5A5', '#9E480E', '#264478'];
const SYMBOLS = ['circle', 'rect', 'triangle', 'diamond', 'roundRect', 'pin', 'arrow'];
const DASHES = ['solid', 'dashed', 'dotted'] as const;
const TEXT = '#333333';

/** What every chart of a report shares: white, no animation (a printed page), the house font, its title. */
export function chartFrame(title: string): EChartsOption {
  return {
    animation: false,
    backgroundColor: '#FFFFFF',
    textStyle: { fontFamily: `${CHART_FONT}, sans-serif`, color: TEXT },
    title: {
      text: title,
      left: 'center',
      top: 8,
      textStyle: {
        fontSize: 16,
        fontWeight: 'bold',
        color: TEXT,
        width: CHART_WIDTH - 20,
        overflow: 'truncate',
      },
    },
  };
}
const LABEL_SIZE = 12;
/** Room the plot leaves on the left and right of a vertical-bar chart for the value axis. */
const SIDE_ROOM = 110;
/** A horizontal-bar chart's category labels are cut to this many characters. */
const HBAR_LABEL_CHARACTERS = 36;

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** Ticks and values alike: 8,000 and 10,000 (at most one decimal); 25% / 2.5%; 0.45. */
export function formatValue(v: number, format: ChartValueFormat = 'integer'): string {
  if (format === 'percent') return `${(v * 100).toFixed(v !== 0 && Math.abs(v) < 0.1 ? 1 : 0)}%`;
  if (format === 'ratio') return v.toFixed(2);
  return GROUPED.format(v);
}

export function chartOption(chart: ChartSpec, measure: MeasureText): EChartsOption {
  if (chart.kind === 'sankey') return sankeyOption(chart);
  const horizontal = chart.kind === 'hbar';
  const several = chart.series.length > 1;
  const categories = horizontal
    ? chart.categories.map((c) => shorten(c, HBAR_LABEL_CHARACTERS))
    : chart.categories;
  const categoryAxis = {
    type: 'category' as const,
    data: categories,
    name: chart.categoryAxis,
    nameLocation: 'middle' as const,
    nameTextStyle: { fontWeight: 'bold' as const, color: TEXT },
    nameMoveOverlap: true,
    boundaryGap: chart.kind !== 'line',
    inverse: horizontal,
    axisLabel: horizontal
      ? { interval: 0, color: TEXT, fontSize: LABEL_SIZE }
      : categoryLabels(chart, measure),
    axisTick: { alignWithLabel: true },
  };
  const valueAxes = [valueAxis(chart.valueAxis, horizontal)];
  if (chart.secondValueAxis) valueAxes.push(valueAxis(chart.secondValueAxis, horizontal));
  return {
    ...chartFrame(chart.title),
    color: PALETTE,
    legend: several
      ? {
          show: true,
          bottom: 6,
          itemGap: 18,
          selectedMode: false,
          textStyle: { fontSize: LABEL_SIZE, color: TEXT },
        }
      : { show: false },
    // the plot shrinks until its labels and axis titles fit inside this box: no label is cut at the edge
    grid: {
      left: 12,
      right: 16,
      top: 48,
      bottom: several ? 36 : 8,
      outerBoundsMode: 'same',
      outerBoundsContain: 'all',
    },
    xAxis: horizontal ? valueAxes : categoryAxis,
    yAxis: horizontal ? categoryAxis : valueAxes,
    series: chart.series.map((series, s) => seriesOption(chart, series, s)),
  };
}

function valueAxis(axis: ChartValueAxis, horizontal: boolean) {
  const format = axis.format ?? 'integer';
  const share = format !== 'integer';
  return {
    type: 'value' as const,
    name: axis.title,
    nameLocation: 'middle' as const,
    nameTextStyle: { fontWeight: 'bold' as const, color: TEXT },
    nameMoveOverlap: true,
    min: 0,
    ...(share ? { max: 1, interval: 0.2 } : { minInterval: 1 }),
    axisLabel: {
      color: TEXT,
      fontSize: LABEL_SIZE,
      formatter: (v: number) => formatValue(v, format),
      ...(horizontal ? { hideOverlap: true } : {}),
    },
    splitLine: { lineStyle: { color: '#D9D9D9' } },
  };
}

/**
 * The x labels of a line or vertical-bar chart. Bars: every category, side by side when they fit, wrapped at
 * spaces when each word fits, slanted otherwise. Lines (a time axis, possibly of hundreds of days): as many
 * as fit without overlapping, the first and the last always kept inside the chart.
 */
function categoryLabels(chart: ChartSpec, measure: MeasureText) {
  const base = { color: TEXT, fontSize: LABEL_SIZE, lineHeight: LABEL_SIZE + 3 };
  if (chart.kind === 'line') return { ...base, hideOverlap: true, showMinLabel: true, showMaxLabel: true };
  const slot = (CHART_WIDTH - SIDE_ROOM) / Math.max(chart.categories.length, 1) - 6;
  const width = (text: string) => measure(text, `${LABEL_SIZE}px ${CHART_FONT}`).width;
  const widest = Math.max(0, ...chart.categories.map(width));
  if (widest <= slot) return { ...base, interval: 0 };
  // many short categories (the hours of a day): every second or third label, level, rather than slanted
  const every = Math.ceil((widest + 6) / (slot + 6));
  if (chart.categories.length > 12 && every <= 3) return { ...base, interval: every - 1 };
  const widestWord = Math.max(0, ...chart.categories.flatMap((c) => c.split(' ')).map(width));
  if (widestWord <= slot) return { ...base, interval: 0, width: slot, overflow: 'break' as const };
  return { ...base, interval: 0, rotate: 45, width: 120, overflow: 'truncate' as const };
}

function seriesOption(chart: ChartSpec, series: ChartSeries, s: number) {
  const format = (series.onSecondAxis ? chart.secondValueAxis?.format : chart.valueAxis.format) ?? 'integer';
  const axisIndex = series.onSecondAxis && chart.secondValueAxis ? 1 : 0;
  const axis = chart.kind === 'hbar' ? { xAxisIndex: axisIndex } : { yAxisIndex: axisIndex };
  const notApplicable = (i: number) => series.notApplicable?.[i] === true;
  // a printed chart: no hover states, no pointer cursor
  const still = { silent: true, emphasis: { disabled: true } };
  if (chart.kind === 'line') {
    return {
      type: 'line' as const,
      name: series.name,
      ...axis,
      ...still,
      // a figure that does not apply leaves a gap: the line is not drawn through a value it does not have
      data: series.values.map((v, i) => (notApplicable(i) ? null : v)),
      symbol: SYMBOLS[s % SYMBOLS.length],
      // each later series thinner, with a smaller marker, drawn on top: lines that coincide all stay visible
      symbolSize: series.apart ? 11 : Math.max(5, 11 - 2 * s),
      showSymbol: series.apart === true || chart.categories.length <= 62,
      // a series drawn apart (partial periods): markers only, never joined into the whole periods' line
      lineStyle: series.apart
        ? { width: 0, opacity: 0 }
        : { width: Math.max(1.5, 4.5 - s), type: DASHES[s % DASHES.length] },
      z: 2 + s,
    };
  }
  const position = chart.kind === 'hbar' ? ('right' as const) : ('top' as const);
  return {
    type: 'bar' as const,
    name: series.name,
    ...axis,
    ...still,
    data: series.values.map((v, i) =>
      notApplicable(i)
        ? { value: 0, label: { show: true, position, formatter: NOT_APPLICABLE } }
        : { value: v },
    ),
    barMaxWidth: 60,
    label: {
      show: true,
      position,
      fontSize: LABEL_SIZE - 1,
      color: TEXT,
      formatter: (p: { value: unknown }) => formatValue(Number(p.value), format),
    },
    labelLayout: { hideOverlap: true },
  };
}

function shorten(label: string, max: number): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}
