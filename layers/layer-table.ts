// The one table of layers: which folder (or file, or glob of folders) may import which. biome.json's layering
// overrides are generated from it (`npm run layers`) and test/layering.test.ts proves every forbidden pair fails.
// A TypeScript module rather than JSON: each entry carries its reason as a comment, the generator and the test
// import it typed, and a misspelt path fails the test. Edit this file, never biome.json's layering overrides.

/**
 * One unit of the layering. `path` is one of:
 * - a folder, `src/kb/` (its files and subfolders);
 * - a glob of folders, `src/sources/<name>/` for every name (each folder is a unit of its own: it may not import a sibling);
 * - one file, `src/sources/registry.ts`;
 * - `src/*.ts`, the files at the root of `src/`.
 */
export interface LayerUnit {
  readonly path: string;
  /** Lower imports only from lower layers (the test checks it); layer 1 is one layer of two units. */
  readonly layer: number;
  /** The paths of the units it may import (its own files always). */
  readonly mayImport: readonly string[];
  /** Why, shown in the lint message. */
  readonly why: string;
}

/** An import of today's code against the intended direction, allowed for one file until its fix lands. */
export interface LayerException {
  readonly file: string;
  /** The file it imports (a `.ts` path). */
  readonly imports: string;
  /** Why it is there and what removes it; the test fails once the file no longer imports it. */
  readonly until: string;
}

/** How deep below a unit's folder files may sit (`src/cli/commands/x.ts` is 1); the test checks the tree. */
export const MAX_NESTING = 1;

const ROOT = 'src/*.ts';
const TIME = 'src/time/';
const CORE = [ROOT, TIME];
const HTTP = 'src/http/';
const WAREHOUSE = 'src/warehouse/';
const SOURCE_UNIT = 'src/sources/source-unit.ts';
const DESTINATION_UNIT = 'src/destinations/destination-unit.ts';
const REPORTER = 'src/reporter/';
const NEW_SOURCES = 'src/sources/*/';
const SOURCE_REGISTRY = 'src/sources/registry.ts';
const TABLE_REGISTRY = 'src/sources/tables.ts';
/** The kit of the sources that read the Reporter one day at a time: the days to read, the unit and its job. */
const DAILY_KIT = ['src/sources/daily-days.ts', 'src/sources/daily-source.ts'];

/** What every source (and destination client) may import: the core, the transport, the warehouse, the contracts. */
const SOURCE_BASE = [...CORE, HTTP, WAREHOUSE, SOURCE_UNIT, DESTINATION_UNIT];
/** The source folders; the registries import each one's unit, nothing below the registries imports two. */
const SOURCES = [
  REPORTER,
  'src/sync/',
  'src/chatapi/',
  'src/kb/',
  'src/prompter/',
  'src/webhooks/',
  NEW_SOURCES,
];
/** What the layers above the registries may import besides their own list. */
const UPPER_BASE = [...SOURCE_BASE, SOURCE_REGISTRY, TABLE_REGISTRY];

const SOURCE_WHY = 'A source never imports another source folder nor a registry.';

/**
 * Bottom to top, up to the entry points: 1 the root files and time; 2 HTTP and the warehouse; 3 the contracts;
 * 4 the Reporter; 5 the sources and Pushgate; 6 the source registries; 7 stats, kb eval, the lake; 8 manage,
 * alerts, ClickHouse; 9 the destination registry, reports, platform reports, the scheduler. A new folder is one
 * entry here, then `npm run layers`; a new src/sources/<name>/ needs none.
 */
const BELOW_ENTRY_POINTS: readonly LayerUnit[] = [
  {
    path: ROOT,
    layer: 1,
    mayImport: [TIME],
    why: 'config, errors, log, ...: the ground everything stands on.',
  },
  { path: TIME, layer: 1, mayImport: [ROOT], why: 'Local times and zones, beside the root files.' },

  { path: HTTP, layer: 2, mayImport: CORE, why: 'The one HTTP transport knows no interface.' },
  { path: WAREHOUSE, layer: 2, mayImport: CORE, why: 'DuckDB knows no source and no HTTP.' },

  { path: SOURCE_UNIT, layer: 3, mayImport: [...CORE, HTTP, WAREHOUSE], why: 'The source contract.' },
  {
    path: DESTINATION_UNIT,
    layer: 3,
    mayImport: [...CORE, HTTP, WAREHOUSE],
    why: 'The destination contract.',
  },

  {
    path: REPORTER,
    layer: 4,
    mayImport: SOURCE_BASE,
    why: `The Reporter's source, the base of the Reporter-based ones. ${SOURCE_WHY}`,
  },
  { path: DAILY_KIT[0]!, layer: 4.25, mayImport: CORE, why: 'The UTC days a daily source reads.' },
  {
    path: DAILY_KIT[1]!,
    layer: 4.5,
    mayImport: [...SOURCE_BASE, REPORTER, DAILY_KIT[0]!],
    why: 'The kit of the daily sources: a unit from a table, its staged columns and how to read one day.',
  },
  {
    path: 'src/sync/',
    layer: 5,
    mayImport: [...SOURCE_BASE, REPORTER],
    why: `Reporter-based. ${SOURCE_WHY}`,
  },
  {
    path: NEW_SOURCES,
    layer: 5,
    mayImport: [...SOURCE_BASE, REPORTER, ...DAILY_KIT],
    why: `May be Reporter-based. ${SOURCE_WHY}`,
  },
  { path: 'src/chatapi/', layer: 5, mayImport: SOURCE_BASE, why: SOURCE_WHY },
  { path: 'src/kb/', layer: 5, mayImport: SOURCE_BASE, why: SOURCE_WHY },
  { path: 'src/prompter/', layer: 5, mayImport: SOURCE_BASE, why: SOURCE_WHY },
  { path: 'src/webhooks/', layer: 5, mayImport: SOURCE_BASE, why: SOURCE_WHY },
  {
    path: 'src/pushgate/',
    layer: 5,
    mayImport: SOURCE_BASE,
    why: "A destination client, at the sources' layer.",
  },

  {
    path: SOURCE_REGISTRY,
    layer: 6,
    mayImport: [...SOURCE_BASE, ...SOURCES],
    why: "Imports every source's unit.",
  },
  {
    path: TABLE_REGISTRY,
    layer: 6.5,
    mayImport: [...SOURCE_BASE, SOURCE_REGISTRY],
    why: "Derives the table list from the source registry: a source's tables need no line of their own.",
  },

  { path: 'src/stats/', layer: 7, mayImport: [...UPPER_BASE, REPORTER], why: 'SQL over the warehouse.' },
  { path: 'src/kb-eval/', layer: 7, mayImport: [...UPPER_BASE, REPORTER, 'src/kb/'], why: 'Over src/kb/.' },
  { path: 'src/lake/', layer: 7, mayImport: UPPER_BASE, why: 'Its tables come from the table registry.' },

  {
    path: 'src/manage/',
    layer: 8,
    mayImport: [...UPPER_BASE, REPORTER, 'src/pushgate/', 'src/kb-eval/'],
    why: "Label write-back, pushgate send; it reads kb eval's questions file format for --sql.",
  },
  {
    path: 'src/alerts/',
    layer: 8,
    mayImport: [...UPPER_BASE, 'src/stats/', 'src/pushgate/'],
    why: 'Over stats.',
  },
  { path: 'src/clickhouse/', layer: 8, mayImport: [...UPPER_BASE, 'src/lake/'], why: 'Over the lake.' },

  {
    path: 'src/destinations/registry.ts',
    layer: 9,
    mayImport: [...SOURCE_BASE, 'src/pushgate/', 'src/lake/', 'src/clickhouse/'],
    why: "Imports every destination's unit.",
  },
  ...['src/report/', 'src/platform-reports/'].map((path) => ({
    path,
    layer: 9,
    mayImport: [...UPPER_BASE, REPORTER, 'src/sync/', 'src/stats/', 'src/manage/'],
    why: 'Never the registries of jobs/ and reports/: the callers hand a definition in.',
  })),
  {
    path: 'src/schedule/',
    layer: 9,
    mayImport: [...UPPER_BASE, REPORTER, 'src/sync/', 'src/stats/', 'src/manage/', 'src/pushgate/'],
    why: 'The runner sends notifications through src/pushgate/.',
  },
];

const EMULATOR = 'src/emulator/';
/** Everything in src/ but the CLI and the emulator. */
const LIBRARY = BELOW_ENTRY_POINTS.map((unit) => unit.path);

/** Every unit; then reports/, jobs/ and the CLI (10 to 12) on top, and the emulator apart. */
export const LAYERS: readonly LayerUnit[] = [
  ...BELOW_ENTRY_POINTS,
  {
    path: EMULATOR,
    layer: 1,
    mayImport: [],
    why: "Imports nothing outside itself, so a mistake in the client's reading of the API is not copied into it.",
  },
  { path: 'reports/', layer: 10, mayImport: LIBRARY, why: 'Never src/cli/, src/emulator/ or jobs/.' },
  {
    path: 'jobs/',
    layer: 11,
    mayImport: [...LIBRARY, 'reports/'],
    why: 'Never src/cli/ or src/emulator/; the daily-report job finds its report with reports/index.ts.',
  },
  {
    path: 'src/cli/',
    layer: 12,
    mayImport: [...LIBRARY, EMULATOR, 'jobs/', 'reports/'],
    why: 'The entry point.',
  },
];

/** Today's imports against the direction above, each allowed for its one file until the named change lands. */
export const EXCEPTIONS: readonly LayerException[] = [
  {
    file: 'src/chatapi/sync-chatapi-history.ts',
    imports: 'src/reporter/unknown-values.ts',
    until: 'the unknown-values counter moves out of src/reporter/ (root of src/ or src/warehouse/).',
  },
  {
    file: 'src/webhooks/load-spool-sql.ts',
    imports: 'src/chatapi/parse-chatapi-time.ts',
    until: 'the Chat API time parser moves to src/time/ (both sources read the same format).',
  },
];
