// A report's flow chart (ChartSpec kind `sankey`) as an Apache ECharts Sankey option: columns left to right,
// each node labelled with its text and its sessions, links coloured by their source, no hover states (a
// printed chart). The labels of the last column sit on the node's left so none leaves the chart. Pure.
import type { EChartsOption } from 'echarts';
import { chartFrame, formatValue } from './chart-option.js';
import type { ChartSpec } from './report-definition.js';

const PALETTE = ['#1F4E79', '#ED7D31', '#70AD47', '#7030A0', '#5B9BD5', '#A5A5A5', '#9E480E', '#264478'];
const TEXT = '#333333';
const LABEL_SIZE = 12;
/** A node's label is cut to this many characters (the sheets have the state whole). */
const LABEL_CHARACTERS = 22;

function shorten(label: string): string {
  return label.length <= LABEL_CHARACTERS ? label : `${label.slice(0, LABEL_CHARACTERS - 1)}…`;
}

export function sankeyOption(chart: ChartSpec): EChartsOption {
  const flow = chart.flow ?? { nodes: [], links: [] };
  const columns = Math.max(1, ...flow.nodes.map((n) => n.column + 1));
  const inflow = new Map<string, number>();
  const outflow = new Map<string, number>();
  for (const l of flow.links) {
    inflow.set(l.to, (inflow.get(l.to) ?? 0) + l.value);
    outflow.set(l.from, (outflow.get(l.from) ?? 0) + l.value);
  }
  const colourOf = new Map<string, string>();
  const labels = [...new Set(flow.nodes.map((n) => n.label))];
  for (const [n, label] of labels.entries()) colourOf.set(label, PALETTE[n % PALETTE.length]!);
  const drawn = new Set(flow.links.flatMap((l) => [l.from, l.to]));
  const nodes = flow.nodes
    .filter((n) => drawn.has(n.id))
    .map((n) => ({
      name: n.id,
      depth: n.column,
      itemStyle: { color: colourOf.get(n.label), borderWidth: 0 },
      label: {
        position: n.column === columns - 1 ? ('left' as const) : ('right' as const),
        formatter: `${shorten(n.label)} ${formatValue(n.value ?? Math.max(inflow.get(n.id) ?? 0, outflow.get(n.id) ?? 0))}`,
      },
    }));
  return {
    ...chartFrame(chart.title),
    series: [
      {
        type: 'sankey',
        silent: true,
        emphasis: { disabled: true },
        left: 12,
        right: 12,
        top: 44,
        bottom: 12,
        nodeWidth: 10,
        nodeGap: 6,
        layoutIterations: 0,
        draggable: false,
        data: nodes,
        links: flow.links.map((l) => ({ source: l.from, target: l.to, value: l.value })),
        lineStyle: { color: 'source', opacity: 0.35, curveness: 0.5 },
        label: { color: TEXT, fontSize: LABEL_SIZE },
      },
    ],
  };
}
