// The streamed workbook (our zip, exceljs's XML): (1) every part byte for byte what exceljs's own streaming
// WorkbookWriter wrote before the zip was ours (fixtures/streamed-workbook/: a sheet split at the row limit, an
// empty sheet with its note and a print area, text to escape, wrapped text, yes/no, empty cells, the printed
// heading), only the creation time aside; (2) the messages report of a synced warehouse read back by readers
// that share no code with the writer (unzip -t where installed, JSZip with CRCs, exceljs's reader): every
// message of the emulator's truth once, each sheet's rows in its cells.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReport } from '../../reports/index.js';
import { MESSAGES_COLUMNS } from '../../reports/messages/report.js';
import type { CellInput, SheetSource } from '../../src/report/report-definition.js';
import { writeReport } from '../../src/report/write-report.js';
import { writeStreamingWorkbook } from '../../src/report/write-streaming-workbook.js';
import { createSyncedHarness, type Harness } from '../helpers/sync-harness.js';
import { column, readWorkbook } from './read-workbook.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'streamed-workbook');
const UNZIP = ['/usr/bin/unzip', '/usr/local/bin/unzip'].find((p) => existsSync(p));
const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-streamed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The rows the fixtures were written from: 10 messages, some cells empty, text with &, <, >, quotes, a newline. */
async function* sampleRows(count: number): AsyncGenerator<CellInput[][]> {
  const rows: CellInput[][] = [];
  for (let i = 0; i < count; i += 1)
    rows.push([
      Date.UTC(2026, 10, 20, 10, 0, i % 60),
      'proj&<>',
      `q-${i}`,
      `s-${i >> 2}`,
      'telegram',
      `c${i % 97}`,
      i % 7 === 0 ? null : `Question ${i} "x" & <y>`,
      'Ans\nwer',
      'ev',
      'cls',
      'st',
      i % 3 ? 0.123456 : null,
      'delivered',
      i % 2 === 0,
      i % 5 === 0 ? 1 : false,
      null,
      i * 3,
      null,
      'e',
      'l1, l2',
    ]);
  yield rows;
}

function sampleSheets(): SheetSource[] {
  const columns = MESSAGES_COLUMNS.map((c) => (c.key === 'timestamp' ? { ...c, header: 'Time (UTC)' } : c));
  const note = 'No data for 2026-11-20 (UTC)';
  return [
    { name: 'Messages', columns, rows: sampleRows(10), emptyNote: note },
    {
      name: 'Empty & <x>',
      columns: columns.slice(0, 3).map((c, i) => (i === 2 ? { ...c, print: false } : c)),
      rows: sampleRows(0),
      emptyNote: note,
      autoFilter: false,
    },
  ];
}

/** A zip's parts, name → text, read by JSZip with every CRC checked. */
async function partsOf(path: string): Promise<Map<string, string>> {
  const zip = await JSZip.loadAsync(readFileSync(path), { checkCRC32: true });
  const parts = new Map<string, string>();
  for (const name of Object.keys(zip.files)) parts.set(name, await zip.file(name)!.async('string'));
  return parts;
}

const withoutTimes = (xml: string) => xml.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'TIME');

describe('the streamed workbook', () => {
  it('writes every part as exceljs’s WorkbookWriter did, byte for byte (the creation time aside)', async () => {
    const path = join(dir, 'sample.xlsx');
    const written = await writeStreamingWorkbook(path, sampleSheets(), {
      tz: 'UTC',
      limits: { maxDataRows: 6, maxCellChars: 32_767 },
      title: 'Messages 2026-11-20 – 2026-11-21',
      heading: { title: 'Messages & co', period: '2026-11-20 (UTC)' },
    });
    expect(written.map((s) => [s.name, s.rows])).toEqual([
      ['Messages', 6],
      ['Messages (2)', 4],
      ['Empty & <x>', 0],
    ]);
    if (UNZIP) expect(execFileSync(UNZIP, ['-t', path], { encoding: 'utf8' })).toMatch(/No errors detected/);
    const parts = await partsOf(path);
    const fixtures = readdirSync(FIXTURES);
    expect([...parts.keys()].sort()).toEqual(fixtures.map((f) => f.replaceAll('__', '/')).sort());
    for (const fixture of fixtures) {
      const expected = readFileSync(join(FIXTURES, fixture), 'utf8');
      expect(withoutTimes(parts.get(fixture.replaceAll('__', '/'))!), fixture).toBe(withoutTimes(expected));
    }
  });
});

describe('the messages report, read back by independent readers', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createSyncedHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('holds every message of the truth once, across its sheets; each part’s CRC checked', async () => {
    const from = Date.parse('2026-10-30T00:00:00Z');
    const to = Date.parse('2026-10-31T00:00:00Z');
    const truth = h.truth(from, to);
    const limit = Math.ceil(truth.messages / 2);
    const result = await h.withWarehouse((warehouse) =>
      writeReport(
        { warehouse, report: findReport('messages'), from, to, tz: 'UTC', outDir: join(dir, 'report') },
        { limits: { maxDataRows: limit } },
      ),
    );
    if (UNZIP)
      expect(execFileSync(UNZIP, ['-t', result.path], { encoding: 'utf8' })).toMatch(/No errors detected/);
    const parts = await partsOf(result.path);
    const sheetXml = ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml'].map((n) => parts.get(n)!);
    // the rows as the XML holds them: numbered from 2 under the header, one message id per row
    for (const [i, xml] of sheetXml.entries())
      expect(xml.match(/<row r="\d+"/g)).toHaveLength(1 + (i === 0 ? limit : truth.messages - limit));
    const { sheets } = await readWorkbook(result.path);
    expect(sheets.map((s) => [s.name, s.rows.length])).toEqual([
      ['Messages', limit],
      ['Messages (2)', truth.messages - limit],
    ]);
    const ids = sheets.flatMap((s) => column(s, 'Message ID') as string[]);
    expect(ids.sort()).toEqual([...truth.messageIds].sort());
  });
});
