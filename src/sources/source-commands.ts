// The commands the source units offer, listed without loading the units: `reporter-etl --help` and every
// command's start would otherwise load every source (DuckDB, zod, undici: ~0.6 s). A unit that offers a command
// keeps it in a light file of its own (src/sources/<name>/commands.ts, importing nothing heavy), names it in its
// unit's `commands` and here; test/sources/source-commands.test.ts holds this list equal to the units'.
import type { SourceCommandSpec } from './source-unit.js';

/** Every unit's commands, in the order of SOURCES (none offers one today: their commands are built in). */
export const SOURCE_COMMANDS: readonly SourceCommandSpec[] = [];
