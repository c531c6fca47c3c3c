// A statuses report's file read by its content (src/sources/reporter/read-status-table.ts): CSV or XLSX whatever its
// name, the encoding, BOM and delimiter sniffed, the status column found by its values (a header that names
// another column `status` is not believed), the id column chosen by the window's message ids (a numeric
// `Message ID` beside the real ids loses, a tie goes to the header saying question, then to the leftmost), and
// the faults named: no status column, no id column, a status column whose values stop being statuses.
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ReportFileError, readStatusTable } from '../../../src/sources/reporter/read-status-table.js';
import { SAMPLE_ROWS } from '../../../src/sources/reporter/status-columns.js';

const STATUSES = ['SENT', 'DELIVERED', 'READ', 'NOT_SENT', 'NOT_DELIVERED', ''];

/** n rows of a messages report: its own id, a numeric id, a session, a status, a ticket state and a text. */
function rowsOf(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    id: `q-${String(i).padStart(6, '0')}-x`,
    numeric: String(700_000_000_000 + i * 7),
    session: `s-${i % 13}`,
    status: STATUSES[i % STATUSES.length]!,
    ticket: ['OPEN', 'CLOSED'][i % 2]!,
    text: i % 5 === 0 ? 'hello, "you"\nthere' : `text ${i}`,
  }));
}
type Row = ReturnType<typeof rowsOf>[number];

const quote = (value: string, delimiter: string) =>
  /["\r\n]/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value;

function csvOf(header: string[], rows: string[][], delimiter = ','): string {
  return `${[header, ...rows].map((r) => r.map((v) => quote(v, delimiter)).join(delimiter)).join('\r\n')}\r\n`;
}

/** The report in Russian, its columns in an order of the server's own, with `delimiter`. */
function russianCsv(rows: Row[], delimiter = ','): string {
  return csvOf(
    ['Статус обращения', 'ID сообщения', 'Текст', 'Статус', 'ID сессии', 'ID вопроса'],
    rows.map((r) => [r.ticket, r.numeric, r.text, r.status, r.session, r.id]),
    delimiter,
  );
}

async function xlsxOf(header: string[], rows: string[][], sharedStrings: boolean): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Сообщения');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer({ useSharedStrings: sharedStrings } as never));
}

/** The text in the Cyrillic code page (А..я are 0xC0..0xFF; the rest here is ASCII). */
function windows1251(text: string): Uint8Array {
  return Buffer.from(
    Array.from(text, (c) => {
      const code = c.charCodeAt(0);
      return code >= 0x410 && code <= 0x44f ? code - 0x410 + 0xc0 : code;
    }),
  );
}

const expected = (rows: Row[]) => new Map(rows.map((r) => [r.id, r.status === '' ? null : r.status]));

async function read(bytes: Uint8Array | string, ids: string[]) {
  const unmatched: string[] = [];
  const table = await readStatusTable(typeof bytes === 'string' ? Buffer.from(bytes) : bytes, (why) =>
    unmatched.push(why),
  );
  return { table, statuses: table.statuses.lookup(ids), unmatched };
}

describe('a statuses report read by its content', () => {
  const rows = rowsOf(SAMPLE_ROWS * 2 + 37);
  const ids = rows.map((r) => r.id);

  it('Russian names, the columns in another order: statuses by the window ids, the numeric id not taken', async () => {
    const { table, statuses } = await read(russianCsv(rows), ids);
    expect(table.fileType).toBe('CSV');
    expect(statuses).toEqual(expected(rows));
    expect(table.statuses.idColumn).toBe('ID вопроса');
  });

  it('a header that lies: `status` over ticket states, `Question ID` over numeric ids', async () => {
    const text = csvOf(
      ['Question ID', 'status', 'Ref', 'Result'],
      rows.map((r) => [r.numeric, r.ticket, r.id, r.status]),
    );
    const { table, statuses } = await read(text, ids);
    expect(statuses).toEqual(expected(rows));
    expect(table.statuses.idColumn).toBe('Ref');
  });

  it('two columns with the same ids: the one whose header says question, else the leftmost', async () => {
    const header = ['Message ID', 'Status', 'Question ID'];
    const { table } = await read(
      csvOf(
        header,
        rows.map((r) => [r.id, r.status, r.id]),
      ),
      ids,
    );
    expect(table.statuses.idColumn).toBe('Question ID');
    const plain = await read(
      csvOf(
        ['A', 'B', 'C'],
        rows.map((r) => [r.status, r.id, r.id]),
      ),
      ids,
    );
    expect(plain.table.statuses.idColumn).toBe('B');
  });

  const encodings: [string, Uint8Array, string][] = [
    ['UTF-8 with a BOM and `;`', Buffer.from(`\ufeff${russianCsv(rows, ';')}`), ';'],
    ['UTF-16LE by its BOM, tab-separated', Buffer.from(`\ufeff${russianCsv(rows, '\t')}`, 'utf16le'), '\t'],
    ['Windows-1251 (not UTF-8) with `;`', windows1251(russianCsv(rows, ';')), ';'],
  ];
  for (const [name, bytes, delimiter] of encodings)
    it(`CSV in ${name}`, async () => {
      const { table, statuses } = await read(bytes, ids);
      expect(table.delimiter).toBe(delimiter);
      expect(statuses).toEqual(expected(rows));
      expect(table.statuses.idColumn).toBe('ID вопроса');
    });

  for (const sharedStrings of [false, true])
    it(`XLSX whatever was asked (${sharedStrings ? 'shared' : 'inline'} strings), told by its content`, async () => {
      const bytes = await xlsxOf(
        ['Статус обращения', 'ID сообщения', 'Статус', 'ID вопроса'],
        rows.map((r) => [r.ticket, r.numeric, r.status, r.id]),
        sharedStrings,
      );
      const { table, statuses } = await read(bytes, ids);
      expect(table.fileType).toBe('XLSX');
      expect(statuses).toEqual(expected(rows));
    });

  it('a status the platform added later is kept as given', async () => {
    const text = csvOf(
      ['id', 'status'],
      [
        ['a', 'READ'],
        ['b', 'QUEUED'],
        ['c', ''],
      ],
    );
    expect((await read(text, ['a', 'b', 'c'])).statuses).toEqual(
      new Map([
        ['a', 'READ'],
        ['b', 'QUEUED'],
        ['c', null],
      ]),
    );
  });

  it('ids no column holds: undefined, and why', async () => {
    const { statuses, unmatched } = await read(russianCsv(rows.slice(0, 20)), ['other-1', 'other-2']);
    expect(statuses).toBeUndefined();
    expect(unmatched[0]).toMatch(/none of the report's id-like columns \("ID вопроса", "ID сообщения"/);
  });

  it('an empty report (a header only) answers no statuses', async () => {
    expect((await read('Question ID,Status\r\n', ['a'])).statuses).toEqual(new Map());
  });

  const faults: [string, string | Uint8Array, RegExp][] = [
    [
      'no column of statuses',
      csvOf(
        ['ID', 'Status'],
        [
          ['a', 'Delivered'],
          ['b', 'Read'],
        ],
      ),
      /no column holds delivery statuses \(SENT, DELIVERED, READ, NOT_SENT, NOT_DELIVERED.*the header: "ID", "Status"/,
    ],
    [
      'no column of ids',
      csvOf(
        ['Status', 'Channel'],
        [
          ['READ', 'vk'],
          ['SENT', 'vk'],
        ],
      ),
      /no column holds message ids \(a value in every row, nearly all distinct, without spaces\)/,
    ],
    [
      'a status column whose values stop being statuses after the sample',
      csvOf(
        ['id', 'status'],
        Array.from({ length: SAMPLE_ROWS + 5 }, (_, i) => [
          `m${i}`,
          i === SAMPLE_ROWS + 2 ? 'read it' : 'READ',
        ]),
      ),
      new RegExp(`value on data row ${SAMPLE_ROWS + 3} is "read it", not a delivery status`),
    ],
    ['a legacy XLS workbook', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), /legacy XLS/],
    [
      'a zip that is no workbook',
      new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]),
      /does not read as an XLSX/,
    ],
    ['an empty file', '', /empty: no header/],
  ];
  for (const [name, bytes, message] of faults)
    it(`refuses ${name}, saying what was looked for`, async () => {
      const reading = read(bytes, ['a']);
      await expect(reading).rejects.toThrow(ReportFileError);
      await expect(read(bytes, ['a'])).rejects.toThrow(message);
    });
});
