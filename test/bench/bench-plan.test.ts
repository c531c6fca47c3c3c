// The benchmark's plan and summary (no timing here: the benchmark itself is a script): `--only` adds the
// steps a step needs, options are checked with messages naming the option, and the summary rows compute
// the ratios from the figures given and judge each target.
import { describe, expect, it } from 'vitest';
import { BenchUsageError, parseBenchOptions } from '../../bench/bench-options.js';
import { STEPS, selectSteps } from '../../bench/bench-steps.js';
import { checkSameRows, exportPeriod } from '../../bench/steps/xlsx-export.js';
import { renderResultTable, summariseResults } from '../../bench/summarise-results.js';

const ids = STEPS.map((s) => s.id);

describe('bench plan', () => {
  it('runs every step by default and adds prerequisites to --only, in the run order', () => {
    expect(selectSteps(undefined).map((s) => s.id)).toEqual(ids);
    expect(selectSteps(['incremental', 'stats']).map((s) => s.id)).toEqual([
      'full-sync',
      'incremental',
      'stats',
    ]);
    expect(selectSteps(['transfer-floor']).map((s) => s.id)).toEqual(['full-sync', 'transfer-floor']);
    expect(selectSteps(['xlsx-export']).map((s) => s.id)).toEqual(['full-sync', 'xlsx-export']);
    // the readers step runs last: it runs syncs of its own beside a stats loop
    expect(ids.at(-1)).toBe('concurrent-readers');
    expect(selectSteps(['transfer-floor-capped']).map((s) => s.id)).toEqual([
      'full-sync-capped',
      'transfer-floor-capped',
    ]);
  });

  it('reads the size options and refuses wrong ones by name', () => {
    expect(parseBenchOptions([], ids)).toMatchObject({ sessions: 20_000, days: 30, concurrency: 4 });
    expect(parseBenchOptions(['--large'], ids)).toMatchObject({ sessions: 100_000, large: true });
    expect(parseBenchOptions(['--sessions', '5000', '--only', 'full-sync'], ids)).toMatchObject({
      sessions: 5000,
      only: ['full-sync'],
    });
    expect(() => parseBenchOptions(['--only', 'full-sync,xlsx'], ids)).toThrow(/--only: unknown step "xlsx"/);
    expect(() => parseBenchOptions(['--sessions', 'many'], ids)).toThrow(/--sessions expects a whole number/);
    expect(() => parseBenchOptions(['--large', '--sessions', '10'], ids)).toThrow(BenchUsageError);
    expect(parseBenchOptions([], ids).maxPageSize).toBe(100);
    expect(parseBenchOptions(['--max-page-size', '50'], ids).maxPageSize).toBe(50);
    expect(() => parseBenchOptions(['--max-page-size', '0'], ids)).toThrow(/--max-page-size expects/);
  });

  it('puts ratios first, computes them from the figures and judges the targets', () => {
    const rows = summariseResults(
      {
        'full-sync': {
          seconds: { value: 26, unit: 's' },
          cpuSeconds: { value: 24, unit: 's' },
          requestsPer1000Messages: { value: 58, unit: 'per 1000' },
          peakRssMb: { value: 350, unit: 'MB' },
        },
        'transfer-floor': { seconds: { value: 20, unit: 's' }, cpuSeconds: { value: 3, unit: 's' } },
        'sync-levers': {
          defaultsCpuSeconds: { value: 20, unit: 's' },
          duckdbThreadsCpuSeconds: { value: 25, unit: 's' },
          windowHoursCpuSeconds: { value: 22, unit: 's' },
        },
        'load-floor': { seconds: { value: 6, unit: 's' }, cpuSeconds: { value: 4, unit: 's' } },
        'parse-floor': { cpuSeconds: { value: 8.5, unit: 's' }, duckdbCpuSeconds: { value: 8, unit: 's' } },
        incremental: {
          seconds: { value: 3, unit: 's' },
          syncSeconds: { value: 2.5, unit: 's' },
          transferFloorSeconds: { value: 1.5, unit: 's' },
          peakRssMb: { value: 450, unit: 'MB' },
        },
        stats: { totals: { value: 0.5, unit: 's' }, 'by-period': { value: 1.5, unit: 's' } },
        'xlsx-export': {
          seconds: { value: 30, unit: 's' },
          floorSeconds: { value: 24, unit: 's' },
          rows: { value: 1_000_000, unit: 'count' },
          peakRssMb: { value: 310, unit: 'MB' },
          floorPeakRssMb: { value: 800, unit: 'MB' },
        },
      },
      1_000_000,
    );
    const row = (name: string) => rows.find((r) => r.name === name)!;
    expect(rows[0]).toMatchObject({ group: 'ratio', name: 'full sync ÷ transfer floor', value: 26 / 20 });
    expect(row('full sync ÷ transfer floor').met).toBe(true);
    expect(row('full sync ÷ (transfer floor + load floor)').value).toBe(1);
    expect(row("full sync's CPU ÷ transfer floor's CPU")).toMatchObject({
      value: 8,
      target: '≤ 4',
      met: false,
    });
    // the floors take the cheaper parser (DuckDB's 8 here), plus the load floor's 4
    expect(row("floors' CPU (transfer with parse, plus load) ÷ transfer floor's CPU").value).toBe(4);
    expect(row("full sync's CPU ÷ floors' CPU (transfer with parse, plus load)").value).toBe(2);
    // no capped runs were given: no capped CPU row
    expect(rows.some((r) => r.name.startsWith("full sync's CPU ÷ transfer floor's CPU, pages capped"))).toBe(
      false,
    );
    expect(row("full sync's CPU with DuckDB on 2 threads while syncing ÷ with the defaults").value).toBe(
      1.25,
    );
    expect(row("full sync's CPU with windows of 24 hours ÷ with the defaults")).toMatchObject({
      value: 1.1,
      group: 'ratio',
    });
    expect(row("full sync's CPU with windows of 24 hours ÷ with the defaults").note).toContain(
      'REPORTER_WINDOW_HOURS=24',
    );
    expect(row('incremental ÷ its transfer floor').value).toBe(2);
    // the target is the run's own time; the process's wall time stands beside it
    expect(row('incremental sync, nothing changed, inside the process')).toMatchObject({
      value: 2.5,
      met: false,
    });
    expect(row('incremental sync, nothing changed (the process, wall)').value).toBe(3);
    expect(row('stats: totals').met).toBe(true);
    expect(row('stats: by-period').met).toBe(false);
    expect(row('peak RSS, full sync').met).toBe(true);
    expect(row('peak RSS, incremental sync').met).toBe(false);
    expect(row('messages XLSX export ÷ bare exceljs floor')).toMatchObject({ value: 30 / 24, met: false });
    expect(rows.filter((r) => r.group === 'ratio').at(-1)?.name).toBe(
      'messages XLSX export ÷ bare exceljs floor',
    );
    expect(row('bare exceljs floor (same rows, same styles)').value).toBe(24);
    expect(row('peak RSS, messages XLSX export')).toMatchObject({
      met: false,
      target: '≤ 300 MB',
      note: 'target at 1,000,000 rows (this run: 1,000,000 rows)',
    });
    expect(row('peak RSS, bare exceljs floor')).toMatchObject({ value: 800 });
    expect(rows.findIndex((r) => r.group !== 'ratio')).toBeGreaterThan(
      rows.findIndex((r) => r.name === 'messages XLSX export ÷ bare exceljs floor'),
    );
    const table = renderResultTable(rows);
    expect(table.indexOf('— ratios —')).toBeLessThan(table.indexOf('— absolute —'));
    expect(table.indexOf('— absolute —')).toBeLessThan(table.indexOf('— peak RSS —'));
  });

  it('exports whole UTC days around the synced history and refuses differing row counts', () => {
    const now = Date.parse('2026-11-22T02:10:00Z');
    expect(exportPeriod(now, 30)).toEqual({ from: '2026-10-22', to: '2026-11-23' });
    expect(() => checkSameRows({ exported: 5, floor: 5, warehouse: 5 })).not.toThrow();
    expect(() => checkSameRows({ exported: 5, floor: 4, warehouse: 5 })).toThrow(/export 5, exceljs floor 4/);
    expect(() => checkSameRows({ exported: 5, floor: 5, warehouse: 6 })).toThrow(/warehouse messages 6/);
  });

  it('leaves out rows whose figures were not measured', () => {
    const rows = summariseResults({ 'full-sync': { seconds: { value: 10, unit: 's' } } }, undefined);
    expect(rows.map((r) => r.name)).toEqual(['full sync']);
  });
});
