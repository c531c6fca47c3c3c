// Renders the figures table of bench/README.md from a results file (bench/results/latest.json): only the block
// between `<!-- figures:start -->` and `<!-- figures:end -->` is rewritten, the rest of the page is kept.
// The table is never typed by hand: `npm run bench:figures`, and run-bench.ts after writing latest.json.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './run-child.js';
import { formatFigure } from './summarise-results.js';
import type { BenchResults } from './write-results.js';

export const FIGURES_START = '<!-- figures:start -->';
export const FIGURES_END = '<!-- figures:end -->';

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The block's text: which run it is (command, date, size, machine, load), then one table row per result row. */
export function renderFigures(results: BenchResults): string {
  const m = results.machine;
  const s = results.size;
  const date = `${results.generatedAt.slice(0, 16).replace('T', ' ')} UTC`;
  const load = `load average (1, 5, 15 min) ${m.loadAverageStart.join(' ')} at the start${
    m.loadAverageEnd ? `, ${m.loadAverageEnd.join(' ')} at the end` : ''
  }`;
  const lines = [
    `Generated from \`bench/results/latest.json\` by \`npm run bench:figures\`: do not edit by hand.`,
    '',
    `Run: \`${results.command}\` on ${date}; ${s.sessions.toLocaleString('en')} sessions over ${s.days} days ` +
      `(concurrency ${s.concurrency}, seed ${s.seed}), statistics over ${s.statsMessages.toLocaleString('en')} ` +
      `messages. Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, ${m.os}; ${load}.`,
    '',
    '| figure | value | target | met | note |',
    '|---|---:|---|---|---|',
  ];
  for (const row of results.rows)
    lines.push(
      `| ${[
        escapeCell(row.name),
        formatFigure(row.value, row.unit),
        escapeCell(row.target ?? ''),
        row.met === undefined ? '' : row.met ? 'yes' : '**no**',
        escapeCell(row.note ?? ''),
      ].join(' | ')} |`,
    );
  return lines.join('\n');
}

/** The page with its figures block replaced; a page without both markers, in order, is an error. */
export function replaceFiguresBlock(markdown: string, block: string): string {
  const start = markdown.indexOf(FIGURES_START);
  const end = markdown.indexOf(FIGURES_END);
  if (start < 0 || end < start)
    throw new Error(`the page has no "${FIGURES_START}" … "${FIGURES_END}" block to rewrite`);
  return `${markdown.slice(0, start + FIGURES_START.length)}\n${block}\n${markdown.slice(end)}`;
}

/** Rewrites the figures block of the page from the results file (temp file, then rename). */
export function renderFiguresFile(
  resultsPath = join(REPO_ROOT, 'bench', 'results', 'latest.json'),
  pagePath = join(REPO_ROOT, 'bench', 'README.md'),
): void {
  const results = JSON.parse(readFileSync(resultsPath, 'utf8')) as BenchResults;
  const page = replaceFiguresBlock(readFileSync(pagePath, 'utf8'), renderFigures(results));
  const temp = `${pagePath}.tmp-${process.pid}`;
  writeFileSync(temp, page);
  renameSync(temp, pagePath);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    renderFiguresFile();
    process.stderr.write('bench: figures written to bench/README.md\n');
  } catch (error) {
    process.stderr.write(`bench:figures failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
