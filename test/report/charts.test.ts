// The report charts as ECharts draws them, read back from their SVG text: every category of the kb-eval rank
// histogram labelled, MRR on a 0–1 axis beside the hit rates on a 0–100 % axis, axis titles on every chart,
// no x label cut at the chart's edge, overlapping series told apart, every series of a grouped horizontal
// bar chart drawn, and data text escaped. Inputs are written here; what is checked is what a reader sees.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { kbEvalCharts } from '../../reports/kb-eval/report.js';
import { CHART_WIDTH } from '../../src/report/chart-option.js';
import { dejaVuMeasure } from '../../src/report/font-text-width.js';
import { renderChartPng } from '../../src/report/render-chart-png.js';
import { renderChartSvg } from '../../src/report/render-chart-svg.js';
import type { ChartSpec } from '../../src/report/report-definition.js';

const run = promisify(execFile);

interface SvgText {
  text: string;
  x: number;
  anchor: string;
  size: number;
  rotated: boolean;
}

/** Every <text> of the SVG with where it is drawn (ECharts places each with a translate or a matrix). */
function texts(svg: string): SvgText[] {
  return [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map(([, attributes, text]) => {
    const translate = /transform="translate\(([-\d.]+)[ ,]/.exec(attributes!);
    const matrix = /transform="matrix\(([-\d.,]+)\)"/.exec(attributes!);
    const m = matrix?.[1]?.split(',').map(Number);
    const dx = Number(/\bx="([-\d.]+)"/.exec(attributes!)?.[1] ?? 0);
    return {
      text: decode(text!),
      x: (translate ? Number(translate[1]) : (m?.[4] ?? 0)) + dx,
      anchor: /text-anchor="(\w+)"/.exec(attributes!)?.[1] ?? 'start',
      size: Number(/font-size:([\d.]+)px/.exec(attributes!)?.[1] ?? 12),
      rotated: matrix !== null,
    };
  });
}

function decode(s: string): string {
  return s
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

const RANKS = {
  rank_1: 40,
  rank_2: 8,
  rank_3: 5,
  rank_4: 2,
  rank_5: 1,
  below_5: 3,
  not_found: 6,
  retrieval_failed: 1,
};
const RANK_LABELS = ['1', '2', '3', '4', '5', 'below 5', 'not found', 'retrieval failed'];
const DAY = 86_400_000;
/** Nine runs a day apart at 10:30 UTC; Hit@1 and Hit@5 equal on the first five (their lines overlap). */
const RUNS = Array.from({ length: 9 }, (_, i) => ({
  finished_normally: true,
  started_at: Date.parse('2026-11-18T10:30:00Z') + i * DAY,
  hit_at_1: 0.5 + i * 0.02,
  hit_at_5: 0.5 + i * 0.02 + (i > 4 ? 0.1 : 0),
  mrr: 0.55 + i * 0.01,
  answer_contains_rate: 0.7,
}));
const [figures, histogram] = kbEvalCharts({ run_id: 'r' }, RANKS, RUNS);

describe('report charts (ECharts, server-side SVG)', () => {
  it('the kb-eval rank histogram labels every category: 1 to 5, below 5, not found, retrieval failed', async () => {
    const shown = texts(await renderChartSvg(histogram!)).map((t) => t.text);
    // a label too long for its slot is wrapped at its space: its words are consecutive lines
    const labels = shown.join('\n');
    for (const label of RANK_LABELS)
      expect(labels).toMatch(new RegExp(`(^|\\n)${label.replace(' ', '\\s+')}(\\n|$)`));
    // and every count drawn on its bar
    for (const count of new Set(Object.values(RANKS))) expect(shown).toContain(String(count));
  });

  it('"Figures run by run": hit rates on a 0–100 % axis, MRR on its own 0–1 axis, both titled', async () => {
    const shown = texts(await renderChartSvg(figures!));
    const text = shown.map((t) => t.text);
    expect(text).toEqual(expect.arrayContaining(['0%', '20%', '40%', '60%', '80%', '100%']));
    expect(text).toEqual(expect.arrayContaining(['0.00', '0.20', '0.40', '0.60', '0.80', '1.00']));
    expect(text).toEqual(expect.arrayContaining(['Share of questions', 'MRR (0–1)', 'Run started (UTC)']));
    // no value axis past 100 % or 1 (a 0–1 figure read off a percent axis was the bug)
    expect(text.filter((t) => /^\d+%$/.test(t)).map((t) => Number.parseInt(t, 10))).not.toContain(120);
    expect(figures!.series.find((s) => s.name === 'MRR')!.onSecondAxis).toBe(true);
    expect(figures!.secondValueAxis?.format).toBe('ratio');
    expect(figures!.valueAxis.format).toBe('percent');
  });

  it('every x label lies inside the chart, the last run included ("11-26 10:30" whole)', async () => {
    const measure = dejaVuMeasure();
    const shown = texts(await renderChartSvg(figures!));
    const last = shown.find((t) => t.text === '11-26 10:30');
    expect(last, 'the last run is labelled').toBeDefined();
    for (const t of shown.filter((s) => !s.rotated)) {
      const width = measure
        ? measure(t.text, `${t.size}px DejaVu Sans`).width
        : t.text.length * t.size * 0.62;
      const left = t.anchor === 'middle' ? t.x - width / 2 : t.anchor === 'end' ? t.x - width : t.x;
      expect(left, t.text).toBeGreaterThanOrEqual(0);
      expect(left + width, t.text).toBeLessThanOrEqual(CHART_WIDTH);
    }
  });

  it('series are told apart: a legend entry each, different colours, markers and dashes', async () => {
    const svg = await renderChartSvg(figures!);
    const text = texts(svg).map((t) => t.text);
    for (const name of ['Hit@1', 'Hit@5', 'Expected text', 'MRR']) expect(text).toContain(name);
    // the plotted lines (fill none, a stroke of their own): in series order, each thinner than the one before
    const lines = [
      ...svg.matchAll(
        /<path d="M[^"]*" fill="none" [^>]*stroke="(#[0-9A-Fa-f]{6})" stroke-width="([\d.]+)"([^>]*)>/g,
      ),
    ].filter((l) => l[1]!.toUpperCase() !== '#D9D9D9');
    expect(lines.map((l) => l[1]!.toUpperCase())).toEqual(['#1F4E79', '#ED7D31', '#70AD47', '#7030A0']);
    const widths = lines.map((l) => Number(l[2]));
    expect(widths).toEqual([...widths].sort((a, b) => b - a));
    expect(new Set(widths).size).toBe(4);
    // Hit@5 (second) dashed where Hit@1 (first) is solid: drawn over each other, both stay visible
    expect(lines[0]![3]).not.toContain('stroke-dasharray');
    expect(lines[1]![3]).toContain('stroke-dasharray');
  });

  it('every chart of the reports has both axis titles drawn', async () => {
    for (const chart of [figures!, histogram!]) {
      const text = texts(await renderChartSvg(chart)).map((t) => t.text);
      expect(text).toContain(chart.categoryAxis);
      expect(text).toContain(chart.valueAxis.title);
    }
  });

  it('an emoji in a label is drawn (Symbola), not the box of a missing glyph', async () => {
    const chart = (label: string): ChartSpec => ({
      title: 'Labels',
      kind: 'hbar',
      categories: [label],
      categoryAxis: 'Label',
      valueAxis: { title: 'Sessions' },
      series: [{ name: 'Sessions', values: [3] }],
    });
    const png = async (label: string) => renderChartPng(await renderChartSvg(chart(label)));
    // U+E000 is a private-use character no font has: what a missing glyph looks like
    const missing = await png('Жалоба \uE000');
    for (const emoji of ['🤖', '🚀', '👍'])
      expect((await png(`Жалоба ${emoji}`)).equals(missing), emoji).toBe(false);
    // and two emoji are drawn differently: neither is the box
    expect((await png('Жалоба 🤖')).equals(await png('Жалоба 🚀'))).toBe(false);
  });

  it('a horizontal bar chart draws every series, labels every category and shows n/a, not a bar of 0', async () => {
    const chart: ChartSpec = {
      title: 'Changes',
      kind: 'hbar',
      categories: ['added', 'removed', 'changed status', '<b>renamed</b> & "quoted"'],
      categoryAxis: 'Change',
      valueAxis: { title: 'Sources' },
      series: [
        { name: 'alpha', values: [3, 0, 7, 1] },
        { name: 'beta', values: [5, 2, 0, 4], notApplicable: [false, false, true, false] },
      ],
    };
    const svg = await renderChartSvg(chart);
    const text = texts(svg).map((t) => t.text);
    expect(text).toEqual(expect.arrayContaining([...chart.categories, 'alpha', 'beta', '7', '5', '4']));
    expect(text.filter((t) => t === 'n/a')).toHaveLength(1);
    expect(svg).not.toContain('<b>');
    expect(svg).toMatch(/^<svg role="img" aria-label="Changes"[^>]*>\n<title>Changes<\/title>/);
  });

  it("a chart is drawn with ECharts' one-file build: none of the ~600 modules of its ES entry is loaded", async () => {
    // in a process of its own (this worker may have loaded ECharts otherwise): each module it loads recorded
    const script = `import { renderChartSvg } from './dist/src/report/render-chart-svg.js';
      const svg = await renderChartSvg({ title: 'Sessions', kind: 'bar', categories: ['Mon'], categoryAxis: 'Day',
        valueAxis: { title: 'Sessions' }, series: [{ name: 'Sessions', values: [3] }] });
      process.stdout.write(svg);`;
    const { stdout, stderr } = await run(process.execPath, [
      '--import',
      resolve('test/helpers/record-imports.mjs'),
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(stdout).toMatch(/^<svg role="img" aria-label="Sessions"/);
    expect(stderr).toMatch(/^imported \S+render-chart-svg\.js$/m);
    expect(stderr.match(/^imported \S+node_modules\/(echarts|zrender)\/\S+$/gm) ?? []).toEqual([]);
  });
});
