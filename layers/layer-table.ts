// The one table of layers: which folder (or file, or glob of folders) may import which. biome.json's layering
// overrides are generated from it (`npm run layers`) and test/layering.test.ts proves every forbidden pair fails.
// A TypeScript module rather than JSON: each entry carries its reason as a comment, the generator and the test
// import it typed, and a misspelt path fails the test. Edit this file, never biome.json's layering overrides.

/**
 * One unit of the layering. `path` is one of:
 * - a folder, `src/warehouse/` (its files and subfolders);
 * - a glob of folders, `src/sources/<name>/` for every name (each folder is a unit of its own: it may not import
 *   a sibling);
 * - one file, `src/sources/registry.ts`;
 * - `src/*.ts`, the files at the root of `src/`.
 */
export interface LayerUnit {
  readonly path: string;
  /** Lower imports only from lower layers (the test checks it); layer 1, the ground, is one layer of several units. */
  readonly layer: number;
  /** The paths of the units it may import (its own files always). */
  readonly mayImport: readonly string[];
  /** Why, shown in the lint message. */
  readonly why: string;
}

/** An import against the direction above, allowed for one file: a sibling unit it is built over, with the reason. */
export interface LayerException {
  readonly file: string;
  /** The file it imports (a `.ts` path). */
  readonly imports: string;
  /** Why it is there (and what would remove it); the test fails once the file no longer imports it. */
  readonly reason: string;
}

/** How deep below a unit's folder files may sit (`src/cli/commands/x.ts` is 1); the test checks the tree. */
export const MAX_NESTING = 1;

/** The ground: config, errors, the log at the root, and the small helpers grouped by concern. */
const ROOT = 'src/*.ts';
const GROUND = ['src/time/', 'src/settings/', 'src/secrets/', 'src/text/', 'src/process/', 'src/files/'];
const CORE = [ROOT, ...GROUND];
const HTTP = 'src/http/';
const WAREHOUSE = 'src/warehouse/';
const SOURCE_UNIT = 'src/sources/source-unit.ts';
const DESTINATION_UNIT = 'src/destinations/destination-unit.ts';
const ANALYSIS_UNIT = 'src/analysis/analysis-unit.ts';
/** The kinds of unit, one glob each: every folder there is a unit that may not import a sibling. */
const PLATFORM = 'src/platform/*/';
const SOURCES = 'src/sources/*/';
const ANALYSES = 'src/analysis/*/';
const DESTINATIONS = 'src/destinations/*/';
const SOURCE_REGISTRY = 'src/sources/registry.ts';
/** The units' commands, listed without loading the units (the CLI's start-up). */
const SOURCE_COMMANDS = 'src/sources/source-commands.ts';
const ANALYSIS_REGISTRY = 'src/analysis/registry.ts';
const TABLE_REGISTRY = 'src/sources/tables.ts';
const DESTINATION_REGISTRY = 'src/destinations/registry.ts';
/** The kit of the sources that read the Reporter one day at a time: the days to read, the unit and its job. */
const DAILY_KIT = ['src/sources/daily-days.ts', 'src/sources/daily-source.ts'];
/** The kit of the destinations that export the tables: which tables and columns, and their partitions. */
const EXPORT_KIT = ['src/destinations/lake-tables.ts', 'src/destinations/partitions.ts'];
const MANAGE = 'src/manage/';

/** What every unit may import: the ground, the transport, the warehouse, the contracts. */
const BASE = [...CORE, HTTP, WAREHOUSE, SOURCE_UNIT, DESTINATION_UNIT, ANALYSIS_UNIT];
/** What the layers above the registries may import besides their own list. */
const UPPER_BASE = [...BASE, PLATFORM, SOURCE_REGISTRY, SOURCE_COMMANDS, ANALYSIS_REGISTRY, TABLE_REGISTRY];

const SIBLING_WHY = 'Never a sibling folder of its kind nor a registry.';

/** The ground, one layer: each unit may import the others (config reads the settings' parsers, ...). */
const GROUND_UNITS: readonly LayerUnit[] = [ROOT, ...GROUND].map((path) => ({
  path,
  layer: 1,
  mayImport: CORE.filter((other) => other !== path),
  why: 'The ground everything stands on: config, errors, the log; times, settings, secrets, text, processes, files.',
}));

/**
 * Bottom to top, up to the entry points, as the data flows: 1 the ground; 2 HTTP and the warehouse; 3 the
 * contracts; 4 the platform's clients; 5 the sources; 6 their registry; 7 the analyses; 8 their registry and the
 * table registry; 9 the destinations; 10 their registry and management; 11 reports, platform reports, the
 * scheduler. A new folder of src/sources/, src/analysis/, src/destinations/ or src/platform/ needs no line here.
 */
const BELOW_ENTRY_POINTS: readonly LayerUnit[] = [
  ...GROUND_UNITS,

  { path: HTTP, layer: 2, mayImport: CORE, why: 'The one HTTP transport knows no interface.' },
  { path: WAREHOUSE, layer: 2, mayImport: CORE, why: 'DuckDB knows no source and no HTTP.' },

  ...[SOURCE_UNIT, DESTINATION_UNIT, ANALYSIS_UNIT].map((path) => ({
    path,
    layer: 3,
    mayImport: [...CORE, HTTP, WAREHOUSE],
    why: 'A contract: the shape of a unit of its kind.',
  })),

  {
    path: PLATFORM,
    layer: 4,
    mayImport: [...CORE, HTTP],
    why: `The client of one interface, shared by its source, the analyses and management: it knows no DuckDB. ${SIBLING_WHY}`,
  },

  { path: DAILY_KIT[0]!, layer: 4.25, mayImport: CORE, why: 'The UTC days a daily source reads.' },
  {
    path: DAILY_KIT[1]!,
    layer: 4.5,
    mayImport: [...BASE, PLATFORM, DAILY_KIT[0]!],
    why: 'The kit of the daily sources: a unit from a table, its staged columns and how to read one day.',
  },
  {
    path: SOURCES,
    layer: 5,
    mayImport: [...BASE, PLATFORM, ...DAILY_KIT],
    why: `A source: reads an interface through its client into the warehouse. ${SIBLING_WHY}`,
  },
  { path: SOURCE_REGISTRY, layer: 6, mayImport: [...BASE, SOURCES], why: "Imports every source's unit." },
  {
    path: SOURCE_COMMANDS,
    layer: 6,
    mayImport: [...BASE, SOURCES],
    why: "Lists the units' commands from their light files, without loading the units.",
  },

  {
    path: ANALYSES,
    layer: 7,
    mayImport: [...BASE, PLATFORM],
    why: `An analysis: reads the warehouse and computes. ${SIBLING_WHY}`,
  },
  {
    path: ANALYSIS_REGISTRY,
    layer: 7.5,
    mayImport: [...BASE, ANALYSES],
    why: "Imports every analysis's unit.",
  },
  {
    path: TABLE_REGISTRY,
    layer: 8,
    mayImport: [...BASE, SOURCE_REGISTRY, ANALYSIS_REGISTRY],
    why: "Derives the table list from the source and analysis registries: a unit's tables need no line of their own.",
  },

  ...EXPORT_KIT.map((path, index) => ({
    path,
    layer: 8.25 + index * 0.25,
    mayImport: [...BASE, TABLE_REGISTRY, ...EXPORT_KIT.slice(0, index)],
    why: 'The kit of the destinations that export tables: the exported tables, their partitions.',
  })),
  {
    path: DESTINATIONS,
    layer: 9,
    mayImport: [...UPPER_BASE, ...EXPORT_KIT],
    why: `A destination: where the warehouse's data or events go. ${SIBLING_WHY}`,
  },
  {
    path: DESTINATION_REGISTRY,
    layer: 10,
    mayImport: [...BASE, DESTINATIONS],
    why: "Imports every destination's unit.",
  },
  {
    path: MANAGE,
    layer: 10,
    mayImport: [...UPPER_BASE, ANALYSES],
    why: "Label write-back, pushgate send; it reads kb eval's questions file format for --sql.",
  },

  ...['src/report/', 'src/platform-reports/'].map((path) => ({
    path,
    layer: 11,
    mayImport: [...UPPER_BASE, ANALYSES, MANAGE],
    why: 'Never the registries of jobs/ and reports/: the callers hand a definition in.',
  })),
  {
    path: 'src/schedule/',
    layer: 11,
    mayImport: [...UPPER_BASE, ANALYSES, DESTINATIONS, MANAGE],
    why: 'The runner sends notifications through src/destinations/pushgate/.',
  },
];

const EMULATOR = 'src/emulator/';
/** Everything in src/ but the CLI and the emulator. */
const LIBRARY = BELOW_ENTRY_POINTS.map((unit) => unit.path);

/** Every unit; then reports/, jobs/ and the CLI (12 to 14) on top, and the emulator apart. */
export const LAYERS: readonly LayerUnit[] = [
  ...BELOW_ENTRY_POINTS,
  {
    path: EMULATOR,
    layer: 1,
    mayImport: [],
    why: "Imports nothing outside itself, so a mistake in the client's reading of the API is not copied into it.",
  },
  { path: 'reports/', layer: 12, mayImport: LIBRARY, why: 'Never src/cli/, src/emulator/ or jobs/.' },
  {
    path: 'jobs/',
    layer: 13,
    mayImport: [...LIBRARY, 'reports/'],
    why: 'Never src/cli/ or src/emulator/; the daily-report job finds its report with reports/index.ts.',
  },
  {
    path: 'src/cli/',
    layer: 14,
    mayImport: [...LIBRARY, EMULATOR, 'jobs/', 'reports/'],
    why: 'The entry point.',
  },
];

/** The imports of one unit from a sibling of its kind, each for one file and with its reason. */
export const EXCEPTIONS: readonly LayerException[] = [
  ...['compute-stats.ts', 'stats-report.ts'].map((file) => ({
    file: 'src/analysis/alerts/evaluate-alerts.ts',
    imports: `src/analysis/stats/${file}`,
    reason:
      "an alert rule's metric is a figure of the statistics over its period: the alerts are built over stats, " +
      'as the reports are (one computation of each figure, never a second one to drift).',
  })),
];
