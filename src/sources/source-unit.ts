// The source contract: everything the tool knows about one interface it reads, in one exported unit (its
// settings with the secret ones marked, its tables, error codes, jobs, commands and run). The registries
// (src/sources/registry.ts, tables.ts) derive the config keys' owners, the log's secret list, the job list,
// the CLI list and the exported tables from these units. Layer 2: imports only root files and src/warehouse.
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { ErrorCode } from '../error-codes.js';
import type { Logger } from '../log.js';
import type { TableSpec } from '../warehouse/table-spec.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/** One environment setting a unit owns (its name is the key of `settings`, REPORTER_...). */
export interface SettingSpec {
  /** One line for people: what it holds, its default. */
  readonly describe: string;
  /** How its environment value is read (the schema config.ts's ENV_KEYS validates it with). */
  readonly schema: z.ZodType;
  /**
   * Marks a secret setting: the values of the loaded configuration the log must redact (a token, a key,
   * the secret part of a URL). Every setting whose name says TOKEN, KEY, PASSWORD or SECRET must have it
   * (test/sources/source-settings.test.ts), so a new secret cannot reach the log unredacted.
   */
  readonly secret?: (config: Config) => readonly (string | undefined)[];
}

/** The settings of a unit by environment name. */
export type SettingSpecs = Readonly<Record<string, SettingSpec>>;

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

/** The context of a job a unit offers: src/schedule/job.ts's JobContext fits it. */
export interface SourceJobContext extends SourceRunContext {
  /** The run's id in etl_runs. */
  readonly runId: string;
  /** Opens the warehouse for one step and closes it after. */
  readonly useWarehouse: <T>(fn: (warehouse: Warehouse) => Promise<T>) => Promise<T>;
}

/** What a job run returns: fits src/schedule/job.ts's JobResult. */
export interface SourceJobResult {
  readonly status: 'success' | 'partial' | 'failed';
  readonly summary: string;
  readonly error?: string;
  /** 0 ok, 1 failed, 3 partial, 75 try again later. */
  readonly exitCode: number;
  readonly details?: unknown;
  readonly recordedRunIds?: readonly string[];
}

/** A job a unit offers, declared; jobs/registry.ts adapts it into a scheduler Job. */
export interface SourceJobSpec {
  /** Lower-case words joined by dashes; REPORTER_SCHEDULE_<ID> overrides the schedule. */
  readonly id: string;
  readonly describe: string;
  /** node-cron expression, read in REPORTER_TZ. */
  readonly defaultSchedule: string;
  /** It talks to the Reporter API (needs REPORTER_TOKEN or REPORTER_CONFIG). */
  readonly needsApi: boolean;
  /** The setting without which the job is off, when it is missing. */
  readonly missingSetting?: (config: Config) => { setting: string; meaning: string } | undefined;
  /** It writes its own etl_runs rows. */
  readonly recordsOwnRuns?: boolean;
  run(ctx: SourceJobContext): Promise<SourceJobResult>;
}

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
