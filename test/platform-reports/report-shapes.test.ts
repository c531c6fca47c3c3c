// platform-report against servers whose report files are not the emulator's own guess (its report shape): the
// file read by its content (an XLSX served for CSV is read as XLSX and saved as .xlsx; a CSV with a BOM and `;`
// read with them), and --reconcile finding the id column by its values (Russian or display names, the columns
// shuffled or reversed, a numeric `Message ID` beside): zero differences against the ground truth, the column
// it compared named.
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportShape } from '../../src/emulator/reports/report-shape.js';
import { DEFAULT_REPORT_SHAPE } from '../../src/emulator/reports/report-shape.js';
import type { ReportSpec } from '../../src/platform-reports/build-create-request.js';
import { runPlatformReport } from '../../src/platform-reports/run-platform-report.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { createReportHarness, DAY, type ReportHarness } from './report-harness.js';

let r: ReportHarness;
beforeAll(async () => {
  r = await createReportHarness({ shared: true });
  expect((await r.h.sync({ full: true })).status).toBe('success');
});
afterAll(async () => {
  await r?.close();
});

const period = { from: TEST_NOW - DAY, to: TEST_NOW - 3_600_000 };
const spec = (kind: ReportSpec['kind'], fileType: 'CSV' | 'XLSX'): ReportSpec => ({
  kind,
  period,
  filters: [],
  fileType,
});

async function reconcileAgainst(shape: Partial<ReportShape>, s: ReportSpec) {
  r.h.running.emulator.reportShape = { ...DEFAULT_REPORT_SHAPE, ...shape };
  return runPlatformReport(r.ctx(), s, { ...r.options(), reconcile: true });
}

describe('platform reports whose files are not the emulator’s own guess', () => {
  it('Russian names, shuffled, extra columns, a BOM and `;`: the ids found by their values', async () => {
    const shape = {
      header: 'ru',
      columnOrder: 'shuffled',
      extraColumns: true,
      csvBom: true,
      csvDelimiter: ';',
    } as const;
    const truth = r.h.truth(period.from, period.to);
    const messages = await reconcileAgainst(shape, spec('messages', 'CSV'));
    expect(messages.exitCode).toBe(0);
    expect(messages.reconcile).toMatchObject({
      agree: true,
      idColumn: 'ID вопроса',
      fileIds: truth.messages,
      warehouseIds: truth.messages,
      notes: [],
    });
    const sessions = await reconcileAgainst(shape, spec('sessions', 'CSV'));
    expect(sessions.reconcile).toMatchObject({ agree: true, idColumn: 'ID сессии', fileIds: truth.sessions });
  });

  it('CSV asked, XLSX served: read as XLSX, saved as .xlsx, reconciled by the display names', async () => {
    const result = await reconcileAgainst(
      { header: 'display', csv: 'ignored', columnOrder: 'reversed', extraColumns: true },
      spec('messages', 'CSV'),
    );
    expect(result.exitCode).toBe(0);
    expect(result.reconcile).toMatchObject({ agree: true, idColumn: 'Question ID', notes: [] });
    expect(result.reconcile!.file).toMatch(/\.xlsx$/);
    expect(r.files()).toContain(basename(result.reconcile!.file));
    expect(r.files().filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});
