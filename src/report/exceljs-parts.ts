// The pieces of exceljs 4 (pinned in package.json) that render the streamed workbook's XML: its WorksheetWriter
// (a sheet's head and tail: views, columns, the header row, autofilter, print setup, header and footer), its
// style table, and the xforms of the workbook's fixed parts. exceljs's own WorkbookWriter is not used: its zip
// plumbing (archiver) is replaced by src/report/zip-writer.ts. Loaded from exceljs's lib/ folder (the package
// has no exports map); a changed layout fails here, at load, naming the file.
import { createRequire } from 'node:module';
import type { Style, Worksheet } from 'exceljs';
import { EtlError } from '../errors.js';

const require = createRequire(import.meta.url);

function load<T>(path: string): T {
  try {
    return require(`exceljs/lib/${path}`) as T;
  } catch (cause) {
    throw new EtlError(
      'report.exceljs_changed',
      `exceljs internals changed: cannot load exceljs/lib/${path} (install the exceljs version package.json pins)`,
      { cause },
    );
  }
}

/** The stream a WorksheetWriter writes its XML to: strings, or exceljs's StringBuf (bytes it reuses). */
export interface PartSink {
  pause(): void;
  write(data: string | { toBuffer(): Buffer }): void;
  end(): void;
}

/** What a WorksheetWriter asks of its workbook. */
export interface SheetWorkbook {
  _openStream(path: string): PartSink;
  styles: StyleTable;
}

/** exceljs's style table (StylesXform): a style model's id, added when new; styles.xml. */
export interface StyleTable {
  addStyleModel(style: Partial<Style>, cellType: number): number;
  readonly xml: string;
}

/** A WorksheetWriter: exceljs's streamed Worksheet, with its id (sheetN.xml) and commit. */
export type SheetWriter = Worksheet & { id: number; commit(): void };

interface SheetWriterOptions {
  id: number;
  name: string;
  workbook: SheetWorkbook;
  useSharedStrings: boolean;
  pageSetup?: object;
  views?: object[];
}

interface Xform {
  toXml(model: unknown): string;
  prepare?(model: unknown): void;
}

type XformClass = new () => Xform;

export const WorksheetWriter = load<new (options: SheetWriterOptions) => SheetWriter>(
  'stream/xlsx/worksheet-writer.js',
);
export const StylesXform = load<new (initialise: boolean) => StyleTable>('xlsx/xform/style/styles-xform.js');
export const CoreXform = load<XformClass>('xlsx/xform/core/core-xform.js');
export const RelationshipsXform = load<XformClass>('xlsx/xform/core/relationships-xform.js');
export const ContentTypesXform = load<XformClass>('xlsx/xform/core/content-types-xform.js');
export const AppXform = load<XformClass>('xlsx/xform/core/app-xform.js');
export const WorkbookXform = load<XformClass>('xlsx/xform/book/workbook-xform.js');
export const THEME1_XML = load<string>('xlsx/xml/theme1.js');
export const RelType = load<Record<string, string>>('xlsx/rel-type.js');
