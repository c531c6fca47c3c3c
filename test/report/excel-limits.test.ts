// Excel's limits: a sheet past its data-row limit continues on "<name> (2)" with the header repeated (tested
// with a small injected limit, and the real limit is proved to be the one used by default), a cell over
// 32,767 characters is cut with a visible marker, sheet names stay within 31 characters and unique.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReport } from '../../reports/index.js';
import { EXCEL_LIMITS, fitCellText, MAX_SHEET_NAME, sheetName } from '../../src/report/excel-limits.js';
import { resolveLimits, writeReport } from '../../src/report/write-report.js';
import { createSyncedHarness, type Harness } from '../helpers/sync-harness.js';
import { column, readWorkbook } from './read-workbook.js';

const FROM = Date.parse('2026-10-30T00:00:00Z');
const TO = Date.parse('2026-10-31T00:00:00Z');

let h: Harness;

beforeAll(async () => {
  h = await createSyncedHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('the row limit', () => {
  it('is Excel’s own by default: 1,048,576 rows less the header', () => {
    expect(EXCEL_LIMITS.maxDataRows).toBe(1_048_576 - 1);
    expect(EXCEL_LIMITS.maxCellChars).toBe(32_767);
    expect(resolveLimits()).toEqual(EXCEL_LIMITS);
    expect(resolveLimits({ maxDataRows: 7 })).toEqual({ maxDataRows: 7, maxCellChars: 32_767 });
  });

  it('continues a sheet on "<name> (2)", "(3)" with the header repeated, every row exactly once', async () => {
    const truth = h.truth(FROM, TO);
    const limit = Math.ceil(truth.messages / 2.5);
    const result = await h.withWarehouse((warehouse) =>
      writeReport(
        {
          warehouse,
          report: findReport('messages'),
          from: FROM,
          to: TO,
          tz: 'UTC',
          outDir: `${h.dir}/split`,
        },
        { limits: { maxDataRows: limit } },
      ),
    );
    expect(result.sheets).toEqual([
      { name: 'Messages', rows: limit },
      { name: 'Messages (2)', rows: limit },
      { name: 'Messages (3)', rows: truth.messages - 2 * limit },
    ]);
    const { sheets } = await readWorkbook(result.path);
    expect(sheets.map((s) => s.name)).toEqual(['Messages', 'Messages (2)', 'Messages (3)']);
    for (const s of sheets) {
      expect(s.header).toEqual(sheets[0]!.header);
      expect(s.sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    }
    const ids = sheets.flatMap((s) => column(s, 'Message ID') as string[]);
    expect(ids).toHaveLength(truth.messages);
    expect([...ids].sort()).toEqual([...truth.messageIds].sort());
  });
});

describe('the cell limit', () => {
  it('cuts text over 32,767 characters and says so at the end of the cell', async () => {
    const long = 'Очень длинный вопрос 🙂 '.repeat(3000); // 72,000 UTF-16 units
    const [target] = await h.withWarehouse(async (w) => {
      const rows = await w.query(
        'SELECT question_id FROM messages WHERE "timestamp" >= $1 AND "timestamp" < $2 ORDER BY question_id LIMIT 1',
        [new Date(FROM), new Date(TO)],
      );
      await w.query('UPDATE messages SET question = $1 WHERE question_id = $2', [
        long,
        rows[0]!['question_id'] as string,
      ]);
      return rows.map((r) => r['question_id'] as string);
    });
    const result = await h.withWarehouse((warehouse) =>
      writeReport({
        warehouse,
        report: findReport('messages'),
        from: FROM,
        to: TO,
        tz: 'UTC',
        outDir: `${h.dir}/cut`,
      }),
    );
    const { sheets } = await readWorkbook(result.path);
    const sheet = sheets[0]!;
    const row = sheet.rows.find((r) => r[sheet.header.indexOf('Message ID')] === target)!;
    const cell = row[sheet.header.indexOf('Question')] as string;
    expect(cell.length).toBeLessThanOrEqual(32_767);
    expect(cell.length).toBeGreaterThan(32_700);
    expect(cell).toMatch(/…\[cut: 72000 characters in all\]$/);
    expect(long.startsWith(cell.slice(0, cell.indexOf(' …[cut')))).toBe(true);
  });

  it('never splits an emoji and replaces characters XML cannot hold', () => {
    const text = `${'a'.repeat(9)}🙂🙂🙂`;
    for (let max = 40; max <= 50; max += 1) {
      const cut = fitCellText(text.repeat(5), max);
      expect(cut.length).toBeLessThanOrEqual(max);
      expect(cut).toMatch(/ …\[cut: \d+ characters in all\]$/);
      expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
    expect(fitCellText('ok\u0000\u0007\tline\nnext', 100)).toBe('ok\uFFFD\uFFFD\tline\nnext');
    expect(fitCellText('short', 10)).toBe('short');
  });
});

describe('sheet names', () => {
  it('fit in 31 characters with their suffix, without forbidden characters, unique', () => {
    const long = 'A very long sheet name that goes on and on';
    const first = sheetName(long, new Set());
    expect(first).toHaveLength(MAX_SHEET_NAME);
    const second = sheetName(long, new Set([first]), ' (2)');
    expect(second.length).toBeLessThanOrEqual(MAX_SHEET_NAME);
    expect(second.endsWith(' (2)')).toBe(true);
    expect(sheetName('a/b:c*d?[e]', new Set())).toBe('a b c d  e');
    expect(sheetName('Messages', new Set(['messages']))).toBe('Messages 2');
  });
});
