// A sheet of figures, one a row (a name, its value), each value in its own format: the summary's KPIs, the
// Prompter's figures, a kb eval run's and an unhandled run's. A key/value list, not a table: no autofilter, the
// values (mostly numbers) and their header right-aligned.
import type { CellFormat, CellInput, SheetSource } from './report-definition.js';

/** One row of a figure sheet: its name, its value, the value's format. */
export type Figure = readonly [name: string, value: CellInput, format: CellFormat];

/** The sheet `name` listing `figures`; `nameHeader` heads the names' column (`Figure` by default). */
export function figureSheet(
  name: string,
  figures: readonly Figure[],
  options: { nameHeader?: string; emptyNote?: string; footnotes?: readonly string[] } = {},
): SheetSource {
  return {
    name,
    columns: [
      { key: 'figure', header: options.nameHeader ?? 'Figure', format: 'text' },
      { key: 'value', header: 'Value', format: 'text', align: 'right' },
    ],
    rows: [figures.map(([figure, value]) => [figure, value])],
    cellFormats: figures.map(([, , format]) => [undefined, format]),
    autoFilter: false,
    ...(options.emptyNote === undefined ? {} : { emptyNote: options.emptyNote }),
    ...(options.footnotes === undefined || options.footnotes.length === 0
      ? {}
      : { footnotes: options.footnotes }),
  };
}
