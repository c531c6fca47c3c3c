// The layout tables of docs/architecture.md and of the README held against the tree, so neither can drift:
// every path they name exists; every folder and loose file of src/ (and every unit folder of src/platform/,
// src/sources/, src/analysis/, src/destinations/) has its row in docs/architecture.md, and each file a row
// names sits in that row's folder; the README names exactly the unit folders of each kind, and every top folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KINDS = ['src/platform/', 'src/sources/', 'src/analysis/', 'src/destinations/'];

interface LayoutRow {
  readonly paths: readonly string[];
  readonly text: string;
}

/** The rows of the first table after a heading: the backticked paths of the first cell, the second cell. */
function readLayoutTable(file: string, heading: string): LayoutRow[] {
  const doc = readFileSync(join(ROOT, file), 'utf8');
  const start = doc.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const section = doc.slice(start + heading.length).split(/\n## /)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, first = '', text = ''] = line.split(/\s*\|\s*/);
      return { paths: [...first.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''), text };
    });
}

function isFolder(path: string): boolean {
  return existsSync(join(ROOT, path)) && statSync(join(ROOT, path)).isDirectory();
}

function listFolders(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

function listFilesBelow(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

/** A path of a table's first cell that the tree does not have (`src/*.ts` stands for the root's files). */
function isMissing(path: string): boolean {
  if (path === 'src/*.ts') return false;
  return path.endsWith('/') ? !isFolder(path) : !existsSync(join(ROOT, path));
}

describe("docs/architecture.md's layout of the source", () => {
  const rows = readLayoutTable('docs/architecture.md', '## Layout of the source');
  const named = new Set(rows.flatMap((row) => row.paths));

  it('names only paths the tree has', () => {
    expect(rows.length).toBeGreaterThan(30);
    expect([...named].filter(isMissing)).toEqual([]);
  });

  it('has a row for every folder and loose file of src/ and for every unit folder of each kind', () => {
    const required = [
      ...listFolders('src').map((name) => `src/${name}/`),
      ...KINDS.flatMap((kind) => listFolders(kind).map((name) => `${kind}${name}/`)),
      ...readdirSync(join(ROOT, 'src'))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `src/${name}`),
    ];
    expect(required.filter((path) => !named.has(path))).toEqual([]);
  });

  it("names in each folder's row only files that sit in that folder", () => {
    const strays: string[] = [];
    for (const row of rows) {
      const folders = row.paths.filter((path) => path.endsWith('/') && isFolder(path));
      if (folders.length !== 1) continue;
      const files = new Set(listFilesBelow(folders[0]!));
      for (const [, name = ''] of row.text.matchAll(/`([\w.-]+\.(?:ts|sql))`/g)) {
        if (!files.has(name)) strays.push(`${folders[0]}: ${name}`);
      }
    }
    expect(strays).toEqual([]);
  });
});

describe("the README's layout", () => {
  const rows = readLayoutTable('README.md', '## Layout');

  it('names only paths the tree has, and every top folder of the repository', () => {
    const named = rows.flatMap((row) => row.paths);
    expect(named.filter(isMissing)).toEqual([]);
    const tops = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${entry.name}/`)
      .filter((path) => !['.git/', 'node_modules/', 'dist/', 'data/', 'coverage/'].includes(path));
    const coveredTop = (top: string) => named.some((path) => path === top || path.startsWith(top));
    expect(tops.filter((top) => !coveredTop(top))).toEqual([]);
  });

  it('lists exactly the unit folders of each kind: sources, analyses, destinations, clients', () => {
    for (const kind of KINDS) {
      const row = rows.find((candidate) => candidate.paths[0] === kind);
      expect(row, kind).toBeDefined();
      const listed = [...(row?.text.split(':').slice(1).join(':') ?? '').matchAll(/`([\w-]+)`/g)].map(
        (m) => m[1],
      );
      expect(listed.sort(), kind).toEqual(listFolders(kind));
    }
  });
});
