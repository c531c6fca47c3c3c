// biome.json's layering overrides derived from the table (layers/layer-table.ts): one noRestrictedImports override
// per unit and folder depth that refuses every import leaving the unit (`../**`) and lets the allowed ones back
// (`!../time/**`), so a folder missing from a unit's list is refused, not allowed. Pure: no file is read here.
import { posix } from 'node:path';
import { EXCEPTIONS, LAYERS, type LayerException, type LayerUnit, MAX_NESTING } from './layer-table.js';

/** Where a unit's files sit: one glob of biome's `includes` and a folder standing for it (placeholders named). */
export interface UnitVariant {
  readonly include: string;
  readonly dir: string;
  readonly nesting: number;
}

export type UnitKind = 'root-files' | 'file' | 'folder' | 'folders';

/** The placeholder names that stand for a glob's folder and for a subfolder. */
export const SAMPLE_SOURCE = 'probe-source';
const SAMPLE_SUBFOLDER = 'sub';

const RULE_NOTE =
  'layers/layer-table.ts, docs/architecture.md "Dependency direction"; biome.json: npm run layers';

export function classifyPath(path: string): UnitKind {
  if (path.endsWith('/*.ts')) return 'root-files';
  if (path.endsWith('/*/')) return 'folders';
  if (path.endsWith('/')) return 'folder';
  return 'file';
}

/** The folder a folder unit's files sit in: the placeholder for a glob. */
function resolveBaseDir(unit: LayerUnit): string {
  return classifyPath(unit.path) === 'folders'
    ? `${unit.path.slice(0, -3)}/${SAMPLE_SOURCE}`
    : unit.path.slice(0, -1);
}

/** The includes of a unit: one per depth of folders below it, a single file or the root's files. */
export function listVariants(unit: LayerUnit): UnitVariant[] {
  const kind = classifyPath(unit.path);
  if (kind === 'root-files' || kind === 'file') {
    return [{ include: unit.path, dir: posix.dirname(unit.path), nesting: 0 }];
  }
  return Array.from({ length: MAX_NESTING + 1 }, (_, nesting) => ({
    include: `${unit.path}${'*/'.repeat(nesting)}*.ts`,
    dir: [resolveBaseDir(unit), ...Array<string>(nesting).fill(SAMPLE_SUBFOLDER)].join('/'),
    nesting,
  }));
}

/** The unit a repository file belongs to and how deep below the unit's folder it sits; undefined when none. */
export function findUnit(file: string): { unit: LayerUnit; nesting: number } | undefined {
  for (const unit of LAYERS) {
    const kind = classifyPath(unit.path);
    const prefix = kind === 'root-files' ? unit.path.slice(0, -4) : unit.path.replace(/\*\/$/, '');
    if (kind === 'file' ? file !== unit.path : !file.startsWith(prefix)) continue;
    const depth = file.slice(prefix.length).split('/').length - 1;
    if (kind === 'root-files' && depth === 0) return { unit, nesting: 0 };
    if (kind === 'folders' && depth >= 1) return { unit, nesting: depth - 1 };
    if (kind === 'folder' || kind === 'file') return { unit, nesting: depth };
  }
  return undefined;
}

/** A relative import specifier from `dir` to a repository path (`./` before a path going down). */
export function relateSpecifier(dir: string, target: string): string {
  const relative = posix.relative(dir, target) || '.';
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The glob matching every import of a unit's files from a file in `dir`. */
export function matchUnitImports(dir: string, path: string): string {
  switch (classifyPath(path)) {
    case 'root-files':
      return `${relateSpecifier(dir, path.slice(0, -5))}/*.js`;
    case 'folders':
      return `${relateSpecifier(dir, path.slice(0, -3))}/*/**`;
    case 'folder':
      return `${relateSpecifier(dir, path.slice(0, -1))}/**`;
    case 'file':
      return relateSpecifier(dir, path.replace(/\.ts$/, '.js'));
  }
}

/** The globs of every import leaving the unit from one of its variants. */
function matchLeavingImports(unit: LayerUnit, variant: UnitVariant): string[] {
  switch (classifyPath(unit.path)) {
    case 'root-files':
      return ['./*/**', '../**'];
    case 'file':
      return ['./**', '../**'];
    default:
      return [`${'../'.repeat(variant.nesting + 1)}**`];
  }
}

function describeUnit(unit: LayerUnit): string {
  const allowed =
    unit.mayImport.length === 0 ? 'nothing outside itself' : `only ${unit.mayImport.join(', ')}`;
  return `Layering: ${unit.path} may import ${allowed}. ${unit.why} (${RULE_NOTE})`;
}

function buildOverride(includes: string[], group: string[], message: string): Record<string, unknown> {
  const rule = { level: 'error', options: { patterns: [{ group, message }] } };
  return { includes, linter: { rules: { style: { noRestrictedImports: rule } } } };
}

/** The group of one variant: leave the unit, come back for each allowed unit and each excepted file. */
function buildGroup(unit: LayerUnit, variant: UnitVariant, dir: string, extra: readonly string[]): string[] {
  const allowed = [...unit.mayImport.map((path) => matchUnitImports(dir, path)), ...extra];
  return [...matchLeavingImports(unit, variant), ...allowed.map((glob) => `!${glob}`)];
}

function listExceptionsOf(unit: LayerUnit, variant: UnitVariant): LayerException[] {
  return EXCEPTIONS.filter((exception) => {
    const found = findUnit(exception.file);
    return found?.unit === unit && found.nesting === variant.nesting;
  });
}

/** The overrides of one unit: one per variant, and one per file with an exception. */
function buildUnitOverrides(unit: LayerUnit): Record<string, unknown>[] {
  const message = describeUnit(unit);
  return listVariants(unit).flatMap((variant) => {
    const exceptions = listExceptionsOf(unit, variant);
    const files = [...new Set(exceptions.map((exception) => exception.file))];
    const excluded = files.map((file) => `!${file}`);
    const overrides = [
      buildOverride([variant.include, ...excluded], buildGroup(unit, variant, variant.dir, []), message),
    ];
    for (const file of files) {
      const dir = posix.dirname(file);
      const own = exceptions.filter((exception) => exception.file === file);
      const extra = own.map((exception) => matchUnitImports(dir, exception.imports));
      const reasons = own.map((exception) => `${exception.imports}: ${exception.reason}`);
      const note = `${message} Excepted for this file: ${reasons.join(' ')}`;
      overrides.push(buildOverride([file], buildGroup(unit, variant, dir, extra), note));
    }
    return overrides;
  });
}

/** Every layering override of biome.json, in the table's order. */
export function buildLayerOverrides(): Record<string, unknown>[] {
  return LAYERS.flatMap(buildUnitOverrides);
}

/** Whether a biome override is a generated layering one (its message opens with `Layering: `). */
export function isLayerOverride(override: unknown): boolean {
  return JSON.stringify(override).includes('"message":"Layering: ');
}
