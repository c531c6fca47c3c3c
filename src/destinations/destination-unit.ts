// The destination contract: a place the warehouse's data or events go (the Parquet lake, ClickHouse,
// Pushgate), as one unit: its settings (secret ones marked), which tables it reads, where it keeps its
// cursor, its error codes and the jobs it offers. src/destinations/registry.ts lists the units.
import type { Config } from '../config.js';
import type { ErrorCode } from '../error-codes.js';
import type { JobSpec } from '../job-spec.js';
import type { SettingSpecs } from '../settings/define-settings.js';
import type { TableSpec } from '../warehouse/table-spec.js';
import type { Warehouse } from '../warehouse/warehouse.js';

export interface DestinationUnit {
  /** Lower-case words joined by dashes: `lake`, `clickhouse`, `pushgate`. */
  readonly id: string;
  /** One line: where the data goes and what for. */
  readonly describe: string;
  readonly settings: SettingSpecs;
  /** The warehouse tables it reads, chosen from the table registry (the exported ones, for the lake). */
  reads(tables: readonly TableSpec[]): readonly TableSpec[];
  /** Where it keeps how far it has got, so the next run sends only what changed (one line for people). */
  readonly cursor: string;
  /** The setting without which it is off (undefined: it is configured). */
  missingSetting(config: Config): { setting: string; meaning: string } | undefined;
  readonly errorCodes: readonly ErrorCode[];
  readonly jobs: readonly JobSpec<Warehouse>[];
}
