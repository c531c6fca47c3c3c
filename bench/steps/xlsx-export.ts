// Step: the `messages` XLSX export of the whole warehouse the full sync built (`reporter-etl report messages
// --json`, the real CLI as a child) against its floor, a bare exceljs streaming writer writing the same rows
// with the same styles (children/write-bare-xlsx.ts). Both must write as many data rows as the warehouse holds.
import { join } from 'node:path';
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { CLI, childScript, runChild } from '../run-child.js';

const DAY_MS = 86_400_000;

interface ExportJson {
  bytes: number;
  durationMs: number;
  sheets: { name: string; rows: number }[];
}

interface FloorJson {
  rows: number;
  sheets: number;
  warehouseMessages: number;
  wallMs: number;
}

/** Whole UTC days around everything the full sync can have read (its history plus one day, up to its clock). */
export function exportPeriod(emulatorNow: number, days: number): { from: string; to: string } {
  const day = (t: number) => new Date(Math.floor(t / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
  return { from: day(emulatorNow - (days + 1) * DAY_MS), to: day(emulatorNow + DAY_MS) };
}

/** Throws unless the export, the floor and the warehouse agree on the number of data rows. */
export function checkSameRows(counts: { exported: number; floor: number; warehouse: number }): void {
  const { exported, floor, warehouse } = counts;
  if (exported !== floor || exported !== warehouse)
    throw new Error(
      `the XLSX export step wrote different row counts: export ${exported}, exceljs floor ${floor}, ` +
        `warehouse messages ${warehouse} (the period or the SQL no longer covers the whole warehouse)`,
    );
}

export const xlsxExportStep: BenchStep = {
  id: 'xlsx-export',
  title: 'messages XLSX export vs a bare exceljs streaming writer',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    const full = ctx.fullSync!;
    const warehouse = join(full.dataDir, 'warehouse.duckdb');
    const period = exportPeriod(ctx.emulatorNow, ctx.options.days);
    const exportChild = await runChild(
      CLI,
      [
        'report',
        'messages',
        '--from',
        period.from,
        '--to',
        period.to,
        '--tz',
        'UTC',
        '--out',
        join(ctx.dir, 'xlsx-export'),
        '--json',
      ],
      {
        env: { REPORTER_DATA_DIR: full.dataDir, LOG_LEVEL: 'warn' },
        resourcesFile: join(ctx.dir, 'resources-xlsx-export.json'),
      },
    );
    if (exportChild.exitCode !== 0)
      throw new Error(
        `the messages export failed (exit ${exportChild.exitCode}): ${exportChild.stderr.slice(-2000)}`,
      );
    const exported = JSON.parse(exportChild.stdout) as ExportJson;
    const exportedRows = exported.sheets.reduce((sum, s) => sum + s.rows, 0);

    const floorChild = await runChild(
      childScript('write-bare-xlsx.js'),
      [warehouse, `${period.from}T00:00:00Z`, `${period.to}T00:00:00Z`, join(ctx.dir, 'xlsx-floor.xlsx')],
      { resourcesFile: join(ctx.dir, 'resources-xlsx-floor.json') },
    );
    if (floorChild.exitCode !== 0)
      throw new Error(
        `the exceljs floor failed (exit ${floorChild.exitCode}): ${floorChild.stderr.slice(-2000)}`,
      );
    const floor = JSON.parse(floorChild.stdout) as FloorJson;
    checkSameRows({ exported: exportedRows, floor: floor.rows, warehouse: floor.warehouseMessages });
    ctx.say(
      `bench: ${exportedRows.toLocaleString('en')} rows (${period.from} to ${period.to} UTC) in ${exported.sheets.length} sheet(s) ` +
        `and ${floor.sheets} sheet(s)`,
    );
    return {
      seconds: { value: exportChild.wallMs / 1000, unit: 's', note: 'the CLI process, start to exit' },
      reportSeconds: { value: exported.durationMs / 1000, unit: 's', note: "writeReport's own durationMs" },
      floorSeconds: { value: floorChild.wallMs / 1000, unit: 's', note: 'the floor process, start to exit' },
      floorInProcessSeconds: { value: floor.wallMs / 1000, unit: 's', note: 'without node start-up' },
      rows: { value: exportedRows, unit: 'count', note: 'data rows, the same in both files' },
      fileMb: { value: exported.bytes / 1e6, unit: 'MB', note: 'the export' },
      peakRssMb: { value: exportChild.maxRssMb, unit: 'MB' },
      floorPeakRssMb: { value: floorChild.maxRssMb, unit: 'MB' },
      cpuSeconds: { value: exportChild.userCpuS + exportChild.systemCpuS, unit: 's' },
      floorCpuSeconds: { value: floorChild.userCpuS + floorChild.systemCpuS, unit: 's' },
    };
  },
};
