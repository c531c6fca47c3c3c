// Test helper: reads report files back independently of the emulator's writers: a small RFC 4180 CSV
// parser (quoted fields, doubled quotes, CRLF or LF) and an exceljs reader giving rows of plain values.
import ExcelJS from 'exceljs';

export function parseCsv(text: string, delimiter: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let n = 0; n < text.length; n++) {
    const ch = text[n]!;
    if (quoted) {
      if (ch === '"' && text[n + 1] === '"') {
        field += '"';
        n++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === delimiter) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[n + 1] === '\n') n++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** The first worksheet as rows of cell values (index 0 = column A); empty cells are null. */
export async function readXlsx(data: ArrayBuffer): Promise<{ sheet: string; rows: unknown[][] }> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data);
  const sheet = workbook.worksheets[0]!;
  const rows: unknown[][] = [];
  const width = sheet.columnCount;
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const values: unknown[] = [];
    for (let c = 1; c <= width; c++) values.push(row.getCell(c).value ?? null);
    rows.push(values);
  });
  return { sheet: sheet.name, rows };
}
