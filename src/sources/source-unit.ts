// The source contract: everything the tool knows about one interface it reads, in one exported unit (its
// settings with the secret ones marked, its tables, error codes, jobs, commands and run). The registries
// (src/sources/registry.ts, tables.ts) derive the config keys' owners, the log's secret list, the job list,
// the CLI list and the exported tables from these units. Imports only root files and src/warehouse. A unit's
// file stays light: what runs it is imported inside `run` and its jobs' `run` (docs/architecture.md).
import type { Config } from '../config.js';
import type { ErrorCode } from '../error-codes.js';
import type { JobSpec, JobSpecContext, JobSpecResult } from '../job-spec.js';
import type { Logger } from '../log.js';
import type { SettingSpecs } from '../settings/define-settings.js';
import type { TableSpec } from '../warehouse/table-spec.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** What one run of a source or of a job it offers gets: the injected world. */
export interface SourceRunContext {
  readonly config: Config;
  /** Bound with { source } (and { job, runId, trigger } in a job). */
  readonly log: Logger;
  /** Epoch ms; tests pass a fixed clock. */
  readonly now: () => number;
  readonly trigger: 'schedule' | 'manual';
  /** Aborted when the process is asked to stop. */
  readonly signal: AbortSignal;
}

/** The job spec shapes (src/job-spec.ts) over the warehouse: what a unit's jobs are. */
export type SourceJobContext = JobSpecContext<Warehouse>;
export type SourceJobResult = JobSpecResult;
export type SourceJobSpec = JobSpec<Warehouse>;

/** The output side of a command, as the CLI gives it (src/cli/command.ts's CommandIo fits it). */
export interface SourceCommandIo {
  out(line: string): void;
  err(line: string): void;
  readonly isTty: boolean;
  readonly signal?: AbortSignal;
}

/** A command a unit offers, loaded only when it runs; src/cli/main.ts lists it after the built-in ones. */
export interface SourceCommandSpec {
  readonly name: string;
  /** One line for `reporter-etl --help`. */
  readonly summary: string;
  load(): Promise<{
    name: string;
    help: string;
    helpFor?(argv: readonly string[]): string | undefined;
    run(argv: string[], io: SourceCommandIo): Promise<number>;
  }>;
}

/** What `run` did, for the log and the caller. */
export interface SourceRunResult {
  readonly status: 'success' | 'partial' | 'failed';
  /** One line for people. */
  readonly summary: string;
}

export interface SourceUnit {
  /** Lower-case words joined by dashes: `reporter`, `chatapi`, `kb`. */
  readonly id: string;
  /** One line: the interface and what it brings into the warehouse. */
  readonly describe: string;
  readonly settings: SettingSpecs;
  /** Every warehouse table it writes (its migration creates them). */
  readonly tables: readonly TableSpec[];
  /** The codes of src/error-codes.ts it throws. */
  readonly errorCodes: readonly ErrorCode[];
  readonly jobs: readonly SourceJobSpec[];
  readonly commands: readonly SourceCommandSpec[];
  /**
   * One pull into the warehouse. Undefined for a source whose rows arrive otherwise (pushed to the webhook
   * receiver, written by a command it offers) or whose pull a job of the Reporter's runs today.
   */
  run?(ctx: SourceRunContext & { readonly warehouse: Warehouse }): Promise<SourceRunResult>;
}

export type { SettingSpec, SettingSpecs } from '../settings/define-settings.js';
