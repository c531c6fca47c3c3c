// The README's first command: `reporter-etl demo` runs the whole flow with no configuration at all.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

describe('reporter-etl demo', () => {
  it('syncs, computes statistics and reconciles a platform report against its own emulator', async () => {
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
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
