// A workbook written as it goes into our own zip (src/report/zip-writer.ts): exceljs's WorksheetWriter renders
// each sheet's head and tail and its style table the styles, exceljs's xforms the fixed parts, exactly as its
// streaming WorkbookWriter would (the same XML), without its archiver and stream plumbing. One sheet is written
// at a time; data rows go into its part as XML (row-xml.ts), flushed into the zip a chunk at a time.
import { EtlError } from '../errors.js';
import {
  AppXform,
  ContentTypesXform,
  CoreXform,
  type PartSink,
  RelationshipsXform,
  RelType,
  type SheetWriter,
  StylesXform,
  type StyleTable,
  THEME1_XML,
  WorkbookXform,
  WorksheetWriter,
} from './exceljs-parts.js';
import type { ZipEntryStream, ZipWriter } from './zip-writer.js';

export interface WorkbookProperties {
  creator: string;
  title: string;
  created: Date;
}

/** The options a table sheet is created with (sheet-layout.ts TABLE_SHEET). */
export interface SheetOptions {
  pageSetup?: object;
  views?: object[];
}

export class StreamedWorkbook {
  readonly styles: StyleTable = new StylesXform(true);
  private readonly sheets: SheetWriter[] = [];
  private readonly parts = new WeakMap<SheetWriter, SheetPart>();
  private opened: SheetPart | undefined;

  constructor(
    private readonly zip: ZipWriter,
    private readonly properties: WorkbookProperties,
  ) {
    zip.addFile('xl/theme/theme1.xml', THEME1_XML);
    zip.addFile(
      '_rels/.rels',
      toXml(RelationshipsXform, [
        { Id: 'rId1', Type: RelType['OfficeDocument'], Target: 'xl/workbook.xml' },
        { Id: 'rId2', Type: RelType['CoreProperties'], Target: 'docProps/core.xml' },
        { Id: 'rId3', Type: RelType['ExtenderProperties'], Target: 'docProps/app.xml' },
      ]),
    );
  }

  /** A new sheet, its part open in the zip (the sheet before must be finished). */
  addWorksheet(name: string, options: SheetOptions): SheetWriter {
    const workbook = { styles: this.styles, _openStream: (path: string) => this.openPart(path) };
    const sheet = new WorksheetWriter({
      id: this.sheets.length + 1,
      name,
      workbook,
      useSharedStrings: false,
      ...options,
    });
    if (!this.opened)
      throw new EtlError('report.workbook_order', `the sheet ${name} opened no part of the workbook`);
    this.parts.set(sheet, this.opened);
    this.opened = undefined;
    this.sheets.push(sheet);
    return sheet;
  }

  /** The sheet's part: where its rows' XML goes. */
  part(sheet: SheetWriter): SheetPart {
    const part = this.parts.get(sheet);
    if (!part)
      throw new EtlError('report.workbook_order', `the sheet ${sheet.name} is not one of this workbook's`);
    return part;
  }

  /** Commits the sheet (its tail is written) and waits until its part is complete in the zip. */
  async finishSheet(sheet: SheetWriter): Promise<void> {
    sheet.commit();
    await this.part(sheet).closed();
  }

  /** Writes the fixed parts after the sheets (every sheet finished), then the zip's central directory. */
  async commit(): Promise<void> {
    const worksheets = this.sheets;
    this.zip.addFile(
      '[Content_Types].xml',
      toXml(ContentTypesXform, { worksheets, sharedStrings: { count: 0 }, commentRefs: [], media: [] }),
    );
    this.zip.addFile('docProps/app.xml', toXml(AppXform, { worksheets }));
    this.zip.addFile(
      'docProps/core.xml',
      toXml(CoreXform, {
        creator: this.properties.creator,
        lastModifiedBy: 'ExcelJS',
        title: this.properties.title,
        created: this.properties.created,
        modified: this.properties.created,
      }),
    );
    this.zip.addFile('xl/styles.xml', this.styles.xml);
    this.zip.addFile('xl/_rels/workbook.xml.rels', toXml(RelationshipsXform, this.workbookRelationships()));
    const workbook = { worksheets, definedNames: [], views: [], properties: {}, calcProperties: {} };
    this.zip.addFile('xl/workbook.xml', toXml(WorkbookXform, workbook, true));
    await this.zip.finish();
  }

  /** styles, theme, then each sheet (whose rId workbook.xml names). */
  private workbookRelationships(): object[] {
    const relationships = [
      { Id: 'rId1', Type: RelType['Styles'], Target: 'styles.xml' },
      { Id: 'rId2', Type: RelType['Theme'], Target: 'theme/theme1.xml' },
    ];
    for (const sheet of this.sheets) {
      const rId = `rId${relationships.length + 1}`;
      Object.assign(sheet, { rId });
      relationships.push({ Id: rId, Type: RelType['Worksheet'], Target: `worksheets/sheet${sheet.id}.xml` });
    }
    return relationships;
  }

  private openPart(path: string): SheetPart {
    if (!path.startsWith('/xl/worksheets/sheet'))
      throw new EtlError(
        'report.workbook_order',
        `the streamed workbook writes sheets only, not ${path} (comments, links, images)`,
      );
    this.opened = new SheetPart(this.zip.openEntry(path));
    return this.opened;
  }
}

function toXml(
  Xform: new () => { toXml(model: unknown): string; prepare?(model: unknown): void },
  model: unknown,
  prepare = false,
): string {
  const xform = new Xform();
  if (prepare) xform.prepare?.(model);
  return xform.toXml(model);
}

/** The bytes a part gathers before they go to the zip: a little over one chunk of rows (~2.4 MB for 2,048 messages). */
const PART_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * A sheet's part in the zip: the WorksheetWriter's XML and each row's XML encoded as it comes into a buffer
 * (outside V8's heap: the chunk's text is not copied from one young generation to the next while it grows)
 * that goes to the zip entry a chunk at a time (one deflate write per chunk).
 */
export class SheetPart implements PartSink {
  private buffer = Buffer.allocUnsafe(0);
  private used = 0;
  private closing: Promise<void> | undefined;

  constructor(private readonly entry: ZipEntryStream) {}

  pause(): void {}

  write(data: string | { toBuffer(): Buffer }): void {
    if (typeof data !== 'string') {
      this.flush();
      // exceljs reuses its StringBuf: toBuffer() is a copy of the bytes now in it
      this.entry.write(data.toBuffer());
      return;
    }
    // UTF-8 takes at most 3 bytes per UTF-16 unit (4 per surrogate pair)
    const most = data.length * 3;
    if (this.used + most > this.buffer.length) {
      this.flush();
      this.buffer = Buffer.allocUnsafe(Math.max(most, PART_BUFFER_BYTES));
    }
    this.used += this.buffer.write(data, this.used, 'utf8');
  }

  /** Hands the bytes gathered so far to the zip (the zip keeps that buffer: the next bytes go to a new one). */
  flush(): void {
    if (this.used === 0) return;
    this.entry.write(this.buffer.subarray(0, this.used));
    this.buffer = this.buffer.subarray(this.used);
    this.used = 0;
  }
  /** Resolves when the zip can take more (backpressure: the deflate and the file have caught up). */
  ready(): Promise<void> {
    return this.entry.ready();
  }

  end(): void {
    this.flush();
    this.closing = this.entry.close();
    this.closing.catch(() => undefined); // awaited in closed(); never an unhandled rejection
  }

  /** Resolves when the part is complete in the zip (after end()). */
  async closed(): Promise<void> {
    if (!this.closing) throw new EtlError('report.workbook_order', `${this.entry.name} was not ended`);
    await this.closing;
  }
}
