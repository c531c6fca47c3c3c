// Writes a small workbook in memory with exceljs's Workbook (the streaming writer cannot place images):
// the same sheets as the streaming writer, plus each chart as a PNG placed on the first sheet, to the right
// of its table, so the analyst sees figures and charts together on opening the file.
import ExcelJS from 'exceljs';
import { renderChartPng } from './render-chart-png.js';
import { CHART_HEIGHT, CHART_WIDTH, renderChartSvg } from './render-chart-svg.js';
import type { ChartSpec, SheetSource } from './report-definition.js';
import { FROZEN_HEADER } from './sheet-layout.js';
import { addStyledRow, type WriteSheetsOptions, type WrittenSheet, writeSheets } from './write-sheets.js';

export async function writeMemoryWorkbook(
  path: string,
  sheets: readonly SheetSource[],
  charts: readonly ChartSpec[],
  options: WriteSheetsOptions & { title: string },
): Promise<WrittenSheet[]> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'reporter-etl';
  workbook.title = options.title;
  const written = await writeSheets(
    {
      commitRows: false,
      addRow: addStyledRow,
      addSheet: (name) => workbook.addWorksheet(name, FROZEN_HEADER),
      finishSheet: async () => {},
      afterRows: async () => {},
    },
    sheets,
    options,
  );
  const first = workbook.worksheets[0];
  if (first && charts.length > 0) {
    const firstColumn = (sheets[0]?.columns.length ?? 2) + 1;
    charts.forEach((chart, i) => {
      const image = workbook.addImage({
        buffer: renderChartPng(renderChartSvg(chart)) as never,
        extension: 'png',
      });
      // two charts a row, each 800 x 400 px; a default row is 20 px high and a column about 64 px wide
      first.addImage(image, {
        tl: { col: firstColumn + (i % 2) * 13, row: 1 + Math.floor(i / 2) * 21 },
        ext: { width: CHART_WIDTH, height: CHART_HEIGHT },
        editAs: 'oneCell',
      });
    });
  }
  await workbook.xlsx.writeFile(path);
  return written;
}
