// Draws a report chart as SVG by hand (line, vertical bars, horizontal bars): axes with round ticks, grid
// lines, values on bars, a legend when there are several series. A few hundred lines instead of a charting
// library: the four summary charts need nothing more, and the SVG stays small and easy to check. Ticks and
// values share one formatter (8,000 and 10,000 alike); a value that does not apply is drawn as "n/a", not 0.
// Each SVG names itself (<title>, aria-label), so inlined in the HTML summary it is read out as its title.

import type { ChartSpec } from './report-definition.js';

export const CHART_WIDTH = 800;
export const CHART_HEIGHT = 400;
export const CHART_FONT = 'DejaVu Sans';

const PALETTE = ['#1F4E79', '#ED7D31', '#70AD47', '#FFC000', '#5B9BD5', '#A5A5A5', '#9E480E', '#264478'];
const TEXT = '#333333';
const GRID = '#D9D9D9';

export function renderChartSvg(chart: ChartSpec): string {
  const body =
    chart.kind === 'hbar' ? horizontalBars(chart) : chart.kind === 'bar' ? bars(chart) : lines(chart);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" font-family="${CHART_FONT}, sans-serif" role="img" aria-label="${escapeXml(chart.title)}">`,
    `<title>${escapeXml(chart.title)}</title>`,
    `<rect width="100%" height="100%" fill="#FFFFFF"/>`,
    text(CHART_WIDTH / 2, 26, chart.title, { size: 17, anchor: 'middle', weight: 'bold' }),
    ...body,
    ...legend(chart),
    '</svg>',
  ].join('\n');
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

function plotBox(chart: ChartSpec, left: number): Box {
  return {
    left,
    top: 48,
    right: CHART_WIDTH - 24,
    bottom: CHART_HEIGHT - (chart.series.length > 1 ? 74 : 50),
  };
}

function lines(chart: ChartSpec): string[] {
  const box = plotBox(chart, 70);
  const max = maxValue(chart);
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1] ?? 1;
  const n = chart.categories.length;
  const x = (i: number) =>
    n <= 1 ? (box.left + box.right) / 2 : box.left + (i * (box.right - box.left)) / (n - 1);
  const y = (v: number) => box.bottom - (v / top) * (box.bottom - box.top);
  const out = [...valueAxis(ticks, box, y, chart)];
  out.push(...categoryLabels(chart.categories, x, box.bottom + 18));
  chart.series.forEach((series, s) => {
    const colour = PALETTE[s % PALETTE.length]!;
    const shown = [...series.values.entries()].filter(([i]) => !series.notApplicable?.[i]);
    const points = shown.map(([i, v]) => `${fmt(x(i))},${fmt(y(v))}`).join(' ');
    out.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2.5"/>`);
    if (n <= 62) {
      for (const [i, v] of shown)
        out.push(`<circle cx="${fmt(x(i))}" cy="${fmt(y(v))}" r="3" fill="${colour}"/>`);
    }
  });
  return out;
}

function bars(chart: ChartSpec): string[] {
  const box = plotBox(chart, 70);
  const max = maxValue(chart);
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1] ?? 1;
  const n = Math.max(chart.categories.length, 1);
  const slot = (box.right - box.left) / n;
  const groupWidth = slot * 0.75;
  const barWidth = groupWidth / Math.max(chart.series.length, 1);
  const y = (v: number) => box.bottom - (v / top) * (box.bottom - box.top);
  const out = [...valueAxis(ticks, box, y, chart)];
  out.push(...categoryLabels(chart.categories, (i) => box.left + slot * (i + 0.5), box.bottom + 18));
  chart.series.forEach((series, s) => {
    const colour = PALETTE[s % PALETTE.length]!;
    series.values.forEach((v, i) => {
      const x0 = box.left + slot * i + (slot - groupWidth) / 2 + barWidth * s;
      if (series.notApplicable?.[i]) {
        out.push(text(x0 + barWidth / 2 - 1, box.bottom - 5, NOT_APPLICABLE, { size: 11, anchor: 'middle' }));
        return;
      }
      out.push(
        `<rect x="${fmt(x0)}" y="${fmt(y(v))}" width="${fmt(Math.max(barWidth - 2, 1))}" height="${fmt(box.bottom - y(v))}" fill="${colour}"/>`,
      );
      const label = formatValue(v, chart);
      if (barWidth >= Math.max(22, label.length * 6.5))
        out.push(text(x0 + barWidth / 2 - 1, y(v) - 5, label, { size: 11, anchor: 'middle' }));
    });
  });
  return out;
}

function horizontalBars(chart: ChartSpec): string[] {
  const labelWidth = Math.min(
    300,
    24 + 8 * Math.max(4, ...chart.categories.map((c) => Math.min(c.length, 36))),
  );
  const box = plotBox(chart, labelWidth);
  box.right -= 50;
  const values = chart.series[0]?.values ?? [];
  const notApplicable = chart.series[0]?.notApplicable ?? [];
  const max = maxValue(chart);
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1] ?? 1;
  const n = Math.max(chart.categories.length, 1);
  const slot = (box.bottom - box.top) / n;
  const x = (v: number) => box.left + (v / top) * (box.right - box.left);
  const out: string[] = [];
  for (const t of ticks) {
    out.push(
      `<line x1="${fmt(x(t))}" y1="${box.top}" x2="${fmt(x(t))}" y2="${box.bottom}" stroke="${GRID}"/>`,
    );
    out.push(text(x(t), box.bottom + 16, formatValue(t, chart), { size: 11, anchor: 'middle' }));
  }
  chart.categories.forEach((category, i) => {
    const v = values[i] ?? 0;
    const y0 = box.top + slot * i + slot * 0.15;
    const h = slot * 0.7;
    out.push(text(box.left - 8, y0 + h / 2 + 4, shorten(category, 36), { size: 12, anchor: 'end' }));
    if (notApplicable[i]) {
      out.push(text(box.left + 5, y0 + h / 2 + 4, NOT_APPLICABLE, { size: 11 }));
      return;
    }
    out.push(
      `<rect x="${box.left}" y="${fmt(y0)}" width="${fmt(x(v) - box.left)}" height="${fmt(h)}" fill="${PALETTE[0]}"/>`,
    );
    out.push(text(x(v) + 5, y0 + h / 2 + 4, formatValue(v, chart), { size: 11 }));
  });
  out.push(`<line x1="${box.left}" y1="${box.top}" x2="${box.left}" y2="${box.bottom}" stroke="${TEXT}"/>`);
  return out;
}

function valueAxis(ticks: number[], box: Box, y: (v: number) => number, chart: ChartSpec): string[] {
  const out: string[] = [];
  for (const t of ticks) {
    out.push(
      `<line x1="${box.left}" y1="${fmt(y(t))}" x2="${box.right}" y2="${fmt(y(t))}" stroke="${GRID}"/>`,
    );
    out.push(text(box.left - 8, y(t) + 4, formatValue(t, chart), { size: 11, anchor: 'end' }));
  }
  out.push(
    `<line x1="${box.left}" y1="${box.bottom}" x2="${box.right}" y2="${box.bottom}" stroke="${TEXT}"/>`,
  );
  return out;
}

/** Category labels under the axis, thinned out so that they never overlap. */
function categoryLabels(categories: string[], x: (i: number) => number, y: number): string[] {
  const room = (CHART_WIDTH - 100) / Math.max(categories.length, 1);
  const longest = Math.max(1, ...categories.map((c) => c.length)) * 7 + 8;
  const every = Math.max(1, Math.ceil(longest / room));
  return categories.flatMap((c, i) =>
    i % every === 0 ? [text(x(i), y, shorten(c, 18), { size: 11, anchor: 'middle' })] : [],
  );
}

function legend(chart: ChartSpec): string[] {
  if (chart.series.length < 2) return [];
  const y = CHART_HEIGHT - 22;
  const widths = chart.series.map((s) => 28 + s.name.length * 7.5);
  let x = (CHART_WIDTH - widths.reduce((a, b) => a + b, 0)) / 2;
  return chart.series.flatMap((series, s) => {
    const items = [
      `<rect x="${fmt(x)}" y="${y - 10}" width="14" height="12" fill="${PALETTE[s % PALETTE.length]}"/>`,
      text(x + 19, y, series.name, { size: 12 }),
    ];
    x += widths[s]!;
    return items;
  });
}

/** Round axis ticks from 0 to at least `max` (about five steps of 1, 2 or 5 × 10^n). */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let t = 0; t < max + step; t += step) {
    ticks.push(Number(t.toPrecision(12)));
    if (t >= max) break;
  }
  return ticks;
}

/** What a value that does not apply shows (the sheets leave its cell empty). */
export const NOT_APPLICABLE = 'n/a';

/** The largest value drawn (values that do not apply left out). */
function maxValue(chart: ChartSpec): number {
  return Math.max(0, ...chart.series.flatMap((s) => s.values.filter((_, i) => !s.notApplicable?.[i])));
}

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** Ticks and values alike: thousands separated (8,000, 10,000, 1,250,000), at most one decimal. */
export function formatValue(v: number, chart: Pick<ChartSpec, 'valueFormat'>): string {
  if (chart.valueFormat === 'percent') return `${(v * 100).toFixed(v < 0.1 ? 1 : 0)}%`;
  return GROUPED.format(v);
}

function shorten(label: string, max: number): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}

function text(
  x: number,
  y: number,
  content: string,
  style: { size: number; anchor?: 'start' | 'middle' | 'end'; weight?: 'bold' },
): string {
  return `<text x="${fmt(x)}" y="${fmt(y)}" font-size="${style.size}" fill="${TEXT}" text-anchor="${style.anchor ?? 'start'}"${style.weight ? ` font-weight="${style.weight}"` : ''}>${escapeXml(content)}</text>`;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function fmt(n: number): string {
  return Number.isFinite(n) ? String(Math.round(n * 10) / 10) : '0';
}
