// The quick XLSX reader (src/platform/reporter/xlsx-sheet-rows.ts) gives the cells exceljs gives (the reference:
// its whole-workbook reader, through cellText; its streaming reader garbles a character cut by a chunk of the
// shared strings, keeps only the last run of an inline rich text and finds no sheet that is not at
// xl/worksheets/sheetN.xml): workbooks written by exceljs with inline and with shared strings (text
// with XML's escapes, line breaks, Cyrillic, rich text, numbers, booleans, formulas, holes), and one written by
// hand as another producer might, against the values written (exceljs reads no sheet of it: cells without
// references, an absolute part name, phonetic runs, _xHHHH_ escapes, empty rows, a sheet that is not
// sheet1.xml); picked cells are the same cells; an integer of more
// than 15 digits is kept as written; a file it does not read (no workbook, zip64) is declined before any row.
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { cellText } from '../../../src/platform/reporter/read-xlsx-rows.js';
import { readXlsxSheet } from '../../../src/platform/reporter/xlsx-sheet-rows.js';
import { readXlsx } from '../../helpers/reports-files.js';

async function quick(bytes: Uint8Array, pick?: { slotOf: Int32Array; slots: number }): Promise<string[][]> {
  const rows: string[][] = [];
  expect(
    await readXlsxSheet(
      bytes,
      (cells) => rows.push(cells),
      () => pick,
    ),
  ).toBe(true);
  return rows;
}

/** exceljs's rows as text (its whole-workbook reader), the rows without a cell left out. */
async function reference(bytes: Uint8Array): Promise<string[][]> {
  const { rows } = await readXlsx(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  );
  return rows.filter((row) => row.some((v) => v !== null)).map((row) => row.map(cellText));
}

const trimEnd = (rows: string[][]) =>
  rows.map((row) => {
    const cells = [...row];
    while (cells.length > 0 && cells.at(-1) === '') cells.pop();
    return cells;
  });

function sampleRows(): unknown[][] {
  const rows: unknown[][] = [['ID вопроса', 'Статус', 'Text', 'n', 'flag', 'formula', 'empty', 'last']];
  for (let i = 0; i < 700; i++)
    rows.push([
      `q-${i}`,
      ['READ', 'SENT', null][i % 3],
      i % 4 === 0 ? `a <b> & "c" 'd'\nnext line ${i}` : `текст ${i}`,
      i % 5 === 0 ? i + 0.25 : i * 1000,
      i % 2 === 0,
      { formula: 'A1&"x"', result: `r${i}` },
      null,
      i % 7 === 0 ? { richText: [{ text: 'rich ' }, { font: { bold: true }, text: `${i}` }] } : 'z',
    ]);
  return rows;
}

async function streamedWorkbook(sharedStrings: boolean): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const { Writable } = await import('node:stream');
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: sharedStrings });
  const sheet = workbook.addWorksheet('Отчёт');
  for (const row of sampleRows()) sheet.addRow(row).commit();
  await workbook.commit();
  return new Uint8Array(Buffer.concat(chunks));
}

/** A workbook written by hand: what another producer may write that exceljs does not. */
async function handWritten(): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/data.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/strings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  );
  zip.file(
    'xl/workbook.xml',
    '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Данные" sheetId="7" r:id="rId9"/></sheets></workbook>',
  );
  zip.file(
    'xl/_rels/workbook.xml.rels',
    '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="/xl/strings.xml"/><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/data.xml"/></Relationships>',
  );
  zip.file(
    'xl/strings.xml',
    '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="4" uniqueCount="4"><si><t>ID вопроса</t></si><si><t xml:space="preserve"> Статус </t></si><si><r><t>ruby</t></r><r><rPr><b/></rPr><t>text</t></r><rPh sb="0" eb="1"><t>フリガナ</t></rPh></si><si><t>a_x000D_b &amp; c</t></si></sst>',
  );
  zip.file(
    'xl/worksheets/data.xml',
    `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>
<row r="2"><c t="inlineStr"><is><t>q-1</t></is></c><c t="inlineStr"><is><t>READ</t></is></c><c t="s"><v>3</v></c></row>
<row r="3"/>
<row r="4"><c r="A4"><v>1234567890123456789</v></c><c r="C4" t="b"><v>0</v></c></row>
<row r="5"><c r="B5" t="str"><f>B1</f><v>x &lt; y</v></c><c r="D5"><v>1.5E3</v></c></row>
</sheetData><rowBreaks count="0"/></worksheet>`,
  );
  return new Uint8Array(await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' }));
}

describe('the quick XLSX reader', () => {
  for (const sharedStrings of [false, true])
    it(`reads an exceljs workbook (${sharedStrings ? 'shared' : 'inline'} strings) as exceljs does`, async () => {
      const bytes = await streamedWorkbook(sharedStrings);
      expect(trimEnd(await quick(bytes))).toEqual(trimEnd(await reference(bytes)));
    });

  it('picks the cells asked for, by slot, the same cells', async () => {
    const bytes = await streamedWorkbook(true);
    const slotOf = Int32Array.from([1, -1, -1, 0, -1, -1, -1, 2]);
    const picked = await quick(bytes, { slotOf, slots: 3 });
    const all = await reference(bytes);
    expect(picked).toEqual(all.map((row) => [row[3] ?? '', row[0] ?? '', row[7] ?? '']));
  });

  it("reads another producer's workbook: relations, phonetic runs, escapes, empty rows, holes", async () => {
    const bytes = await handWritten();
    const rows = await quick(bytes);
    expect(rows).toEqual([
      ['ID вопроса', ' Статус ', 'rubytext'],
      ['q-1', 'READ', 'a\rb & c'],
      ['1234567890123456789', '', 'false'],
      ['', 'x < y', '', '1500'],
    ]);
  });

  it('declines what it does not read, before any row', async () => {
    const zip = new JSZip();
    zip.file('hello.txt', 'not a workbook');
    const bytes = new Uint8Array(await zip.generateAsync({ type: 'uint8array' }));
    let rows = 0;
    expect(await readXlsxSheet(bytes, () => rows++)).toBe(false);
    expect(await readXlsxSheet(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0]), () => rows++)).toBe(false);
    expect(rows).toBe(0);
  });
});
