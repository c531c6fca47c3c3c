// Turns a chart's SVG into a PNG with resvg (a Rust renderer shipped as prebuilt npm packages: no browser,
// no network). Text needs a font: DejaVu Sans (Debian package fonts-dejavu-core) is loaded from its file when
// present, otherwise the system's fonts are searched; Symbola (fonts-symbola, monochrome outlines) draws the
// emoji DejaVu lacks (a label "Жалоба 🤖" was a box): resvg cannot draw colour emoji fonts (Noto Color Emoji's
// bitmaps), and falls back glyph by glyph to the fonts loaded. Rendered at twice the display size for sharp text.
import { existsSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { CHART_FONT, CHART_WIDTH } from './render-chart-svg.js';

export const FONT_FILES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf',
];

export function renderChartPng(svg: string, scale = 2): Buffer {
  const fontFiles = FONT_FILES.filter((f) => existsSync(f));
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: CHART_WIDTH * scale },
    font: { fontFiles, loadSystemFonts: fontFiles.length === 0, defaultFontFamily: CHART_FONT },
  });
  return resvg.render().asPng();
}
