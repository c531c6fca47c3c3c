// The warehouse module's public surface: open a DuckDB warehouse and the row and result types the sync
// and stats code exchange with it. It knows nothing about HTTP; sync/ is where it meets reporter/.
export { DEFAULT_LOCK_WAIT_MS, type OpenWarehouseOptions, openWarehouse } from './open-warehouse.js';
export type * from './rows.js';
export type * from './warehouse.js';
