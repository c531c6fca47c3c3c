// Draws a report chart as SVG with Apache ECharts on the server (its SVG renderer, `ssr: true`: no DOM, no
// browser), from the option chart-option.ts builds. ECharts is loaded on the first chart only, so commands
// that draw none do not pay for it. Text is measured in the font resvg draws the PNG with (DejaVu Sans,
// font-text-width.ts). Each SVG names itself (<title>, aria-label): inlined in the HTML it is read out as its
// title. The same SVG goes inline into the HTML and, through resvg (render-chart-png.ts), into the workbook.
// ECharts is required as its one-file build (the package's `require` entry, dist/echarts.js): its ES modules
// entry is about 600 files, whose loading cost ~0.6 CPU-s a process against ~0.08 s for the one file.
import { createRequire } from 'node:module';
import { CHART_HEIGHT, CHART_WIDTH, chartOption } from './chart-option.js';
import { dejaVuMeasure, type MeasureText } from './font-text-width.js';
import type { ChartSpec } from './report-definition.js';

export { CHART_FONT, CHART_HEIGHT, CHART_WIDTH, formatValue, NOT_APPLICABLE } from './chart-option.js';

type ECharts = typeof import('echarts');

let loaded: Promise<{ echarts: ECharts; measure: MeasureText }> | undefined;

/** ECharts, with its text measured in the chart font (once per process). */
function loadECharts(): Promise<{ echarts: ECharts; measure: MeasureText }> {
  loaded ??= Promise.resolve().then(() => {
    const echarts = createRequire(import.meta.url)('echarts') as ECharts;
    const dejaVu = dejaVuMeasure();
    if (dejaVu) echarts.setPlatformAPI({ measureText: dejaVu });
    // without the font: the width ECharts estimates, a little wider, as most fallback fonts are
    const measure: MeasureText =
      dejaVu ??
      ((text, font) => ({ width: text.length * 0.62 * Number(/(\d+)px/.exec(font ?? '')?.[1] ?? 12) }));
    return { echarts, measure };
  });
  return loaded;
}

export async function renderChartSvg(chart: ChartSpec): Promise<string> {
  const { echarts, measure } = await loadECharts();
  const instance = echarts.init(null, null, {
    renderer: 'svg',
    ssr: true,
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
  });
  try {
    instance.setOption(chartOption(chart, measure));
    return nameSvg(instance.renderToSVGString(), chart.title);
  } finally {
    instance.dispose();
  }
}

/** The SVG with its title as <title> and aria-label (role img). */
function nameSvg(svg: string, title: string): string {
  const name = escapeXml(title);
  return svg.replace(/^<svg\b([^>]*)>/, `<svg role="img" aria-label="${name}"$1>\n<title>${name}</title>`);
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
