// The README's first command: `reporter-etl demo` runs the whole flow with no configuration at all.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';

describe('reporter-etl demo', () => {
  it('syncs, computes statistics, writes the summary workbook and reconciles a platform report against its own emulator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-'));
    try {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('REPORTER_')));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['bin/reporter-etl.js', 'demo', '--sessions', '500', '--data-dir', join(dir, 'demo')],
        { env },
      );
      expect(stdout).toMatch(/shop-bot: success/);
      expect(stdout).toMatch(/Totals/);
      expect(stdout).toMatch(/they agree/);
      expect(existsSync(join(dir, 'demo', 'warehouse.duckdb'))).toBe(true);
      expect(readdirSync(join(dir, 'demo', 'platform-reports')).some((f) => f.endsWith('.xlsx'))).toBe(true);
      const [summary, ...others] = readdirSync(join(dir, 'demo', 'reports'));
      expect(others).toEqual([]);
      expect(summary).toMatch(/^summary_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(join(dir, 'demo', 'reports', summary!));
      expect(workbook.worksheets.map((w) => w.name)).toContain('Summary');
      expect(workbook.worksheets.flatMap((w) => w.getImages())).toHaveLength(4);
      expect(stdout).toContain(summary);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
