// The figures table of bench/README.md is rendered from a results file, not typed: a fixture results object
// gives one table row per result row (name, value with its unit, target, met, note) and a line naming the
// run; only the block between the markers is rewritten; the committed page matches bench/results/latest.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  FIGURES_END,
  FIGURES_START,
  renderFigures,
  replaceFiguresBlock,
} from '../../bench/render-figures.js';
import type { BenchResults } from '../../bench/write-results.js';

const fixture: BenchResults = {
  schemaVersion: 1,
  generatedAt: '2026-11-22T03:15:16.027Z',
  command: 'npm run bench -- --large',
  machine: {
    cpuModel: 'Test CPU',
    cpus: 2,
    memoryGiB: 8,
    node: 'v20.0.0',
    os: 'linux 6.0',
    loadAverageStart: [1.5, 2, 3],
    loadAverageEnd: [1.25, 1.5, 2.5],
  },
  size: { sessions: 100_000, days: 30, concurrency: 4, seed: 42, statsMessages: 10_000_000 },
  rows: [
    {
      group: 'ratio',
      name: 'full sync ÷ transfer floor',
      value: 2.239,
      unit: 'ratio',
      target: '≤ 1.3',
      met: false,
    },
    { group: 'absolute', name: 'full sync', value: 122.1217, unit: 's' },
    { group: 'absolute', name: 'requests (full sync)', value: 55653, unit: 'count' },
    { group: 'absolute', name: 'requests per 1,000 messages', value: 58.5625, unit: 'per 1000' },
    {
      group: 'rss',
      name: 'peak RSS | incremental',
      value: 384.6,
      unit: 'MB',
      target: '≤ 400 MB',
      met: true,
      note: 'target at 1,000,000 messages',
    },
  ],
  steps: {},
};

function tableRows(block: string): string[] {
  return block.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| figure '));
}

describe('render-figures', () => {
  it('renders one row per result row: name, value with unit, target, met, note', () => {
    expect(tableRows(renderFigures(fixture))).toEqual([
      '| full sync ÷ transfer floor | 2.24 | ≤ 1.3 | **no** |  |',
      '| full sync | 122.12 s |  |  |  |',
      '| requests (full sync) | 55,653 |  |  |  |',
      '| requests per 1,000 messages | 58.6 |  |  |  |',
      '| peak RSS \\| incremental | 385 MB | ≤ 400 MB | yes | target at 1,000,000 messages |',
    ]);
  });

  it('names the run: command, date, size, machine and load', () => {
    const block = renderFigures(fixture);
    expect(block).toContain('`npm run bench -- --large` on 2026-11-22 03:15 UTC');
    expect(block).toContain('100,000 sessions over 30 days');
    expect(block).toContain('10,000,000 messages');
    expect(block).toContain('2 × Test CPU, 8 GiB, Node v20.0.0, linux 6.0');
    expect(block).toContain('1.5 2 3 at the start, 1.25 1.5 2.5 at the end');
  });

  it('rewrites only the block between the markers, the same way each time', () => {
    const page = `# Title\n\nbefore\n\n${FIGURES_START}\nold table\n${FIGURES_END}\n\nafter\n`;
    const once = replaceFiguresBlock(page, renderFigures(fixture));
    expect(once.startsWith('# Title\n\nbefore\n\n')).toBe(true);
    expect(once.endsWith(`${FIGURES_END}\n\nafter\n`)).toBe(true);
    expect(once).not.toContain('old table');
    expect(replaceFiguresBlock(once, renderFigures(fixture))).toBe(once);
    expect(() => replaceFiguresBlock('# no block\n', 'x')).toThrow(/figures:start/);
  });

  it('bench/README.md holds the table of bench/results/latest.json', () => {
    const results = JSON.parse(readFileSync('bench/results/latest.json', 'utf8')) as BenchResults;
    const page = readFileSync('bench/README.md', 'utf8');
    expect(replaceFiguresBlock(page, renderFigures(results))).toBe(page);
  });
});
