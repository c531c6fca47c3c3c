// Every relative link of the project's pages (README.md, docs/, bench/README.md, reports/README.md) points at
// a file that exists, and every #anchor at a heading of its target page (GitHub's heading ids: lower case,
// punctuation dropped, spaces to hyphens, repeats numbered). Links inside code are not links.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const PAGES = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
  'bench/README.md',
  'reports/README.md',
];

/** The page's lines outside fenced code blocks. */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's ids of the page's headings. */
function slugHeadings(text: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** The relative link targets of the page, inline code left out. */
function relativeLinks(text: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '``');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) targets.push(target);
    }
  }
  return targets;
}

describe('links between the pages', () => {
  it('reads GitHub heading ids', () => {
    expect([
      ...slugHeadings('# A title\n## `stats --json`\n```\n# not a heading\n```\n## A title\n'),
    ]).toEqual(['a-title', 'stats---json', 'a-title-1']);
  });

  it.each(PAGES)('%s: every relative link resolves, anchors included', (page) => {
    const broken: string[] = [];
    const links = relativeLinks(readFileSync(page, 'utf8'));
    for (const link of links) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? page : join(dirname(page), decodeURI(path));
      if (!existsSync(target)) {
        broken.push(`${link}: no file ${relative('.', target)}`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md')) {
        const ids = slugHeadings(readFileSync(target, 'utf8'));
        if (!ids.has(anchor)) broken.push(`${link}: no heading #${anchor} in ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
