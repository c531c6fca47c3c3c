// Proves that generated workbooks open without repair in a real spreadsheet program: LibreOffice (Debian
// package libreoffice-calc) converts the summary (with its chart images) and a split messages workbook to PDF
// headless; the PDF must exist and soffice must report no error. Skipped, with a message, where soffice is
// missing on a developer machine; in CI (CI=true) a missing soffice fails the test (.ci/run installs it).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReport } from '../../reports/index.js';
import { writeReport } from '../../src/report/write-report.js';
import { convertToPdf, SOFFICE } from '../helpers/soffice.js';
import { createSyncedHarness, type Harness } from '../helpers/sync-harness.js';

const inCi = process.env['CI'] === 'true';
const FROM = Date.parse('2026-10-30T00:00:00+03:00');
const TO = Date.parse('2026-10-31T00:00:00+03:00');

if (!SOFFICE && !inCi)
  console.warn(
    'libreoffice.test.ts skipped: soffice not found; install the Debian package libreoffice-calc ' +
      '(apt-get install -y --no-install-recommends libreoffice-calc) to check that workbooks open without repair',
  );

describe.skipIf(!SOFFICE && !inCi)('LibreOffice opens the workbooks', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createSyncedHarness();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('soffice --headless --convert-to pdf converts summary and a split messages workbook', async () => {
    expect(SOFFICE, 'CI must have soffice: .ci/run installs libreoffice-calc').toBeDefined();
    const outDir = join(h.dir, 'reports');
    const summary = await h.withWarehouse((warehouse) =>
      writeReport({
        warehouse,
        report: findReport('summary'),
        from: FROM,
        to: TO,
        tz: 'Europe/Moscow',
        outDir,
      }),
    );
    const messages = await h.withWarehouse((warehouse) =>
      writeReport(
        { warehouse, report: findReport('messages'), from: FROM, to: TO, tz: 'Europe/Moscow', outDir },
        { limits: { maxDataRows: 200 } },
      ),
    );
    expect(messages.sheets.length).toBeGreaterThan(1);
    const pdfDir = join(h.dir, 'pdf');
    mkdirSync(pdfDir, { recursive: true });
    for (const workbook of [summary.path, messages.path]) {
      const said = await convertToPdf([workbook], {
        outDir: pdfDir,
        profileDir: join(h.dir, 'lo-profile'),
        timeoutMs: 120_000,
      });
      expect(said).toMatch(/convert .* -> .*\.pdf/);
      expect(said).not.toMatch(/error|repair|corrupt|could not be loaded/i);
      const pdf = join(
        pdfDir,
        workbook
          .split('/')
          .pop()!
          .replace(/\.xlsx$/, '.pdf'),
      );
      expect(existsSync(pdf), pdf).toBe(true);
      const bytes = readFileSync(pdf);
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      expect(bytes.length).toBeGreaterThan(5_000);
    }
  }, 240_000);
});
