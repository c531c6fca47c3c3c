// The checks the commands make before opening the warehouse: REPORTER_DATA_DIR must be a folder (or not
// exist yet), and for the reading commands (stats, report) the file must exist, else a usage error naming
// REPORTER_DATA_DIR tells the user to sync first (nothing is created by a read).
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../config.js';
import type { ErrorCode } from '../error-codes.js';
import { EtlError, UsageError } from '../errors.js';

/** The nearest existing path at or above `path`, or undefined (nothing of it exists). */
function findExisting(path: string): { path: string; isDirectory: boolean } | undefined {
  for (let p = path; ; p = dirname(p)) {
    try {
      return { path: p, isDirectory: statSync(p).isDirectory() };
    } catch {
      if (dirname(p) === p) return undefined;
    }
  }
}

/**
 * Throws `config.data_dir_not_folder` (exit 2) when REPORTER_DATA_DIR names a file, or a path under a file;
 * a folder that does not exist yet is fine (sync creates it).
 */
export function requireDataDir(config: Config): void {
  const existing = findExisting(config.dataDir);
  if (existing === undefined || existing.isDirectory) return;
  const what =
    existing.path === config.dataDir
      ? `${config.dataDir} is a file, not a folder`
      : `${config.dataDir} is under ${existing.path}, which is a file, not a folder`;
  throw new UsageError(
    `REPORTER_DATA_DIR: ${what}; set REPORTER_DATA_DIR to the folder of the warehouse (sync creates it when missing)`,
    'config.data_dir_not_folder',
  );
}

/** The reading commands, each with its own code (the codes are in the catalogue, error-codes.ts). */
const NO_WAREHOUSE = {
  stats: 'stats.no_warehouse',
  report: 'report.no_warehouse',
  sql: 'sql.no_warehouse',
  unhandled: 'unhandled.no_warehouse',
  paths: 'paths.no_warehouse',
  'label-sessions': 'label-sessions.no_warehouse',
  'label-messages': 'label-messages.no_warehouse',
  export: 'export.no_warehouse',
  pushgate: 'pushgate.no_warehouse',
} as const satisfies Record<string, ErrorCode>;

/** Throws `<command>.no_warehouse` (exit 2) when config.warehousePath does not exist yet. */
export function requireWarehouse(config: Config, command: keyof typeof NO_WAREHOUSE): void {
  requireDataDir(config);
  if (!existsSync(config.warehousePath))
    throw new EtlError(
      NO_WAREHOUSE[command],
      `REPORTER_DATA_DIR: there is no warehouse at ${config.warehousePath} yet; run reporter-etl sync first`,
      { kind: 'usage' },
    );
}
