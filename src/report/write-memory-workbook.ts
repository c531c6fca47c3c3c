// Writes a small workbook in memory with exceljs's Workbook (the streaming writer cannot place images): the
// cover page first when the report has one (write-cover-sheet.ts), the same sheets as the streaming writer,
// plus the charts as PNGs on their own sheet, "Charts", right after the first table: one under the other, two
// to a printed portrait page (a row break after every second), so that no chart is ever cut across pages; the
// pages carry the report's header and footer like the tables'.
import ExcelJS from 'exceljs';
import { headerFooter, PRINT_SETUP, type PrintHeading } from './print-layout.js';
import { renderChartPng } from './render-chart-png.js';
import { CHART_HEIGHT, CHART_WIDTH, renderChartSvg } from './render-chart-svg.js';
import type { ChartSpec, CoverPage, SheetSource } from './report-definition.js';
import { TABLE_SHEET } from './sheet-layout.js';
import { addCoverSheet } from './write-cover-sheet.js';
import { addStyledRow, type WriteSheetsOptions, type WrittenSheet, writeSheets } from './write-sheets.js';

export const CHARTS_SHEET = 'Charts';

/** Rows of 15 pt (20 px) a chart takes with the gap below it: a chart is 400 px high, 20 rows. */
export const CHART_ROWS = 22;
/** Columns of CHART_COLUMN_WIDTH characters (75 px each) the charts' print area spans: 825 px, a chart's 800 and a margin. */
const CHART_COLUMNS = 11;
const CHART_COLUMN_WIDTH = 10;
/** Charts on one printed page: two 400 px charts fit an A4 portrait page at CHARTS_PRINT_SCALE. */
export const CHARTS_PER_PAGE = 2;
/**
 * The charts' print scale: their 825 px print area across A4 portrait (595 pt) less 0.25 in margins; the
 * charts' 11 px labels print at 7.1 pt.
 */
const CHARTS_PRINT_SCALE = 86;

export async function writeMemoryWorkbook(
  path: string,
  sheets: readonly SheetSource[],
  charts: readonly ChartSpec[],
  options: WriteSheetsOptions & { title: string; cover?: CoverPage | undefined },
): Promise<WrittenSheet[]> {
  // drawn before the sheets are added (drawing is asynchronous: ECharts is loaded on the first chart)
  const png = async (chart: ChartSpec) => renderChartPng(await renderChartSvg(chart));
  const images = await Promise.all(charts.map(png));
  const coverCharts = (options.cover?.blocks ?? []).flatMap((b) => ('chart' in b ? [b.chart] : []));
  const coverImages = await Promise.all(coverCharts.map(png));
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'reporter-etl';
  workbook.title = options.title;
  // the cover first: the workbook opens on it and prints it on page 1
  if (options.cover) addCoverSheet(workbook, options.cover, coverImages, options.tz, options.heading);
  const tableSheets = () => workbook.worksheets.length - (options.cover ? 1 : 0);
  const written = await writeSheets(
    {
      commitRows: false,
      addRow: addStyledRow,
      addSheet: (name) => {
        const sheet = workbook.addWorksheet(name, TABLE_SHEET);
        // the charts' sheet comes after the first table (the KPIs)
        if (tableSheets() === 1 && charts.length > 0) addChartsSheet(workbook, images, options.heading);
        return sheet;
      },
      finishSheet: async () => {},
      afterRows: async () => {},
    },
    sheets,
    options,
  );
  await workbook.xlsx.writeFile(path);
  return written;
}

/** The charts' sheet: `charts` are their PNGs, in order; `heading` its printed header and footer. */
function addChartsSheet(
  workbook: ExcelJS.Workbook,
  charts: readonly Buffer[],
  heading: PrintHeading | undefined,
): void {
  const sheet = workbook.addWorksheet(CHARTS_SHEET, {
    pageSetup: {
      ...PRINT_SETUP,
      orientation: 'portrait',
      scale: CHARTS_PRINT_SCALE,
      margins: { ...PRINT_SETUP.margins, left: 0.25, right: 0.25 },
      printArea: `A$1:${String.fromCharCode(64 + CHART_COLUMNS)}$${charts.length * CHART_ROWS}`,
    },
    ...(heading ? { headerFooter: headerFooter(heading) } : {}),
  });
  sheet.columns = Array.from({ length: CHART_COLUMNS }, () => ({ width: CHART_COLUMN_WIDTH }));
  for (let r = 1; r <= charts.length * CHART_ROWS; r += 1) sheet.getRow(r).height = 15;
  charts.forEach((png, i) => {
    const image = workbook.addImage({
      buffer: png as never,
      extension: 'png',
    });
    sheet.addImage(image, {
      tl: { col: 0, row: i * CHART_ROWS },
      ext: { width: CHART_WIDTH, height: CHART_HEIGHT },
      editAs: 'oneCell',
    });
    if ((i + 1) % CHARTS_PER_PAGE === 0 && i < charts.length - 1)
      sheet.getRow((i + 1) * CHART_ROWS).addPageBreak();
  });
}
