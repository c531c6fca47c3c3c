// The check the reading commands (stats, report) make before opening the warehouse: the file must exist,
// else a usage error naming REPORTER_DATA_DIR tells the user to sync first (nothing is created by a read).
import { existsSync } from 'node:fs';
import type { Config } from '../config.js';
import { EtlError } from '../errors.js';

/** Throws `<command>.no_warehouse` (exit 2) when config.warehousePath does not exist yet. */
export function requireWarehouse(config: Config, command: string): void {
  if (!existsSync(config.warehousePath))
    throw new EtlError(
      `${command}.no_warehouse`,
      `REPORTER_DATA_DIR: there is no warehouse at ${config.warehousePath} yet; run reporter-etl sync first`,
      { kind: 'usage' },
    );
}
