// The registry of destinations: one line per destination unit. The job list and the log's secret list derive
// from it with the sources' (src/sources/registry.ts).
import { clickHouseDestination } from './clickhouse/destination.js';
import type { DestinationUnit } from './destination-unit.js';
import { lakeDestination } from './lake/destination.js';
import { pushgateDestination } from './pushgate/destination.js';

export const DESTINATIONS: readonly DestinationUnit[] = [
  lakeDestination,
  clickHouseDestination,
  pushgateDestination,
];
