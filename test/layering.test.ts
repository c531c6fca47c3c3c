// The layering (layers/layer-table.ts, generated into biome.json by `npm run layers`): the table points only
// downward and covers every folder; biome.json holds exactly the generated rules; and one Biome run over probe files
// (a temporary folder laid out like the repository) refuses every forbidden (unit, target) pair, allows the rest.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildLayerOverrides,
  classifyPath,
  findUnit,
  isLayerOverride,
  listVariants,
  relateSpecifier,
  type UnitVariant,
} from '../layers/biome-layer-rules.js';
import { EXCEPTIONS, LAYERS, type LayerUnit, MAX_NESTING } from '../layers/layer-table.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');
const TOP_FOLDERS = ['src', 'jobs', 'reports'];

/** One import line of a probe file: whether the rule must refuse it. */
interface ProbeLine {
  readonly specifier: string;
  readonly refused: boolean;
}

function findLayer(path: string): LayerUnit {
  const unit = LAYERS.find((candidate) => candidate.path === path);
  if (unit === undefined) throw new Error(`${path} is not a unit of the layer table`);
  return unit;
}

/** Every folder and file below the top folders, as repository paths. */
function walkTree(dir: string): { dirs: string[]; files: string[] } {
  const dirs: string[] = [];
  const files: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (!entry.isDirectory()) {
      files.push(path);
      continue;
    }
    const below = walkTree(path);
    dirs.push(path, ...below.dirs);
    files.push(...below.files);
  }
  return { dirs, files };
}

/** A file of the target unit, as the probe's folder would name it in an import. */
function sampleImport(dir: string, target: LayerUnit): string {
  const kind = classifyPath(target.path);
  const file =
    kind === 'root-files'
      ? 'src/probe-root.js'
      : kind === 'folders'
        ? `${target.path.slice(0, -2)}other-source/probe-target.js`
        : kind === 'folder'
          ? `${target.path}probe-target.js`
          : target.path.replace(/\.ts$/, '.js');
  return relateSpecifier(dir, file);
}

/** The probe file of a unit's variant: one import of every unit, refused unless the table allows it. */
function buildProbeLines(unit: LayerUnit, variant: UnitVariant, dir: string): ProbeLine[] {
  const own = variant.nesting === 0 ? './probe-own.js' : '../probe-own.js';
  const lines: ProbeLine[] = classifyPath(unit.path) === 'file' ? [] : [{ specifier: own, refused: false }];
  for (const target of LAYERS) {
    // a glob's folder may not import a sibling folder of the same glob
    if (target === unit && classifyPath(unit.path) !== 'folders') continue;
    lines.push({ specifier: sampleImport(dir, target), refused: !unit.mayImport.includes(target.path) });
  }
  return lines;
}

function nameProbeFile(unit: LayerUnit, variant: UnitVariant): string {
  const kind = classifyPath(unit.path);
  if (kind === 'file') return unit.path;
  return kind === 'root-files' ? 'src/layer-probe.ts' : `${variant.dir}/layer-probe.ts`;
}

/** Every probe file: the table's units at each depth, and each excepted file with its exception allowed. */
function buildProbes(): Map<string, ProbeLine[]> {
  const probes = new Map<string, ProbeLine[]>();
  for (const unit of LAYERS) {
    for (const variant of listVariants(unit)) {
      probes.set(nameProbeFile(unit, variant), buildProbeLines(unit, variant, variant.dir));
    }
  }
  for (const exception of EXCEPTIONS) {
    const found = findUnit(exception.file);
    if (found === undefined) throw new Error(`${exception.file} belongs to no unit`);
    const dir = posix.dirname(exception.file);
    const variant = { include: exception.file, dir, nesting: found.nesting };
    const lines = probes.get(exception.file) ?? buildProbeLines(found.unit, variant, dir);
    const specifier = relateSpecifier(dir, exception.imports.replace(/\.ts$/, '.js'));
    probes.set(exception.file, [...lines, { specifier, refused: false }]);
  }
  return probes;
}

/** Writes the probe files; each import is named `p<line>` and used, so only the layering rule can object. */
function writeProbes(dir: string, probes: Map<string, ProbeLine[]>): void {
  for (const [file, lines] of probes) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    const imports = lines.map((line, index) => `import { p${index + 2} } from '${line.specifier}';`);
    const names = lines.map((_, index) => `p${index + 2}`).join(', ');
    writeFileSync(join(dir, file), `// probe\n${imports.join('\n')}\n\nexport const probes = [${names}];\n`);
  }
}

/** The relative imports of a real file, as repository paths of `.ts` files. */
function readImports(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/\bfrom\s+'(\.[^']+)'/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) => posix.join(posix.dirname(file), specifier).replace(/\.js$/, '.ts'));
}

describe('the layer table', () => {
  it('names each unit once and only units in its lists, each below the importer (layer 1 is one layer)', () => {
    expect(new Set(LAYERS.map((unit) => unit.path)).size).toBe(LAYERS.length);
    const upward: string[] = [];
    for (const unit of LAYERS) {
      for (const path of unit.mayImport) {
        const target = findLayer(path);
        if (target.layer >= unit.layer && !(target.layer === 1 && unit.layer === 1)) {
          upward.push(`${unit.path} → ${path}`);
        }
      }
    }
    expect(upward, 'an import must point to a lower layer').toEqual([]);
  });

  it('covers every folder and TypeScript file of src/, jobs/ and reports/, no deeper than MAX_NESTING', () => {
    const tree = TOP_FOLDERS.map(walkTree);
    const dirs = tree.flatMap((part) => part.dirs);
    const files = tree.flatMap((part) => part.files);
    const holdsUnits = (dir: string) => LAYERS.some((unit) => unit.path.startsWith(`${dir}/`));
    const add = 'add a unit to layers/layer-table.ts (or raise MAX_NESTING), then run npm run layers';
    expect(
      dirs.filter((dir) => !holdsUnits(dir) && findUnit(`${dir}/x.ts`) === undefined),
      add,
    ).toEqual([]);
    const uncovered = files.filter((file) => {
      if (/\.(js|mjs|cjs|mts|cts|tsx)$/.test(file)) return true; // the rules include *.ts only
      if (!file.endsWith('.ts')) return false;
      const found = findUnit(file);
      return found === undefined || found.nesting > MAX_NESTING;
    });
    expect(uncovered, add).toEqual([]);
    expect(files.length).toBeGreaterThan(300);
  });

  it('keeps an exception only while its file still imports what its unit may not', () => {
    const stale = EXCEPTIONS.filter((exception) => {
      const importer = findUnit(exception.file)?.unit;
      const target = findUnit(exception.imports)?.unit;
      if (importer === undefined || target === undefined) return true;
      if (importer.mayImport.includes(target.path)) return true;
      return !readImports(exception.file).includes(exception.imports);
    });
    expect(stale, 'remove them from EXCEPTIONS (layers/layer-table.ts), then run npm run layers').toEqual([]);
  });
});

describe('biome.json', () => {
  it('holds exactly the layering overrides generated from the table (else run npm run layers)', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as { overrides: unknown[] };
    const layering = config.overrides.filter(isLayerOverride);
    expect(layering).toEqual(buildLayerOverrides());
    expect(config.overrides.slice(-layering.length)).toEqual(layering);
  });
});

describe('the layering lint rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'layering-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses every import the table forbids, at every depth, and no import it allows', () => {
    const probes = buildProbes();
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    writeProbes(dir, probes);
    const run = spawnSync(
      process.execPath,
      [BIOME, 'lint', '--reporter=concise', '--colors=off', '--max-diagnostics=none', ...TOP_FOLDERS],
      { cwd: dir, encoding: 'utf8', timeout: 60_000 },
    );
    const output = `${run.stdout}${run.stderr}`;
    const flagged = new Set(
      [...output.matchAll(/(\S+\.ts):(\d+):\d+: lint\/style\/noRestrictedImports/g)].map(
        (m) => `${m[1]}:${m[2]}`,
      ),
    );
    const describeLine = (file: string, line: ProbeLine) => `${file} → ${line.specifier}`;
    const lines = [...probes].flatMap(([file, fileLines]) =>
      fileLines.map((line, index) => ({ key: `${file}:${index + 2}`, text: describeLine(file, line), line })),
    );
    expect(run.status, output.slice(0, 2000)).toBe(1);
    expect(lines.filter((probe) => probe.line.refused && !flagged.has(probe.key)).map((p) => p.text)).toEqual(
      [],
    );
    expect(lines.filter((probe) => !probe.line.refused && flagged.has(probe.key)).map((p) => p.text)).toEqual(
      [],
    );
    expect(flagged.size).toBe(lines.filter((probe) => probe.line.refused).length);
    expect(flagged.size).toBeGreaterThan(500);
  });
});
