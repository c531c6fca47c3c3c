// Test helper: the real ClickHouse server the tests and the benchmark start (bench/clickhouse-server.ts).
export { type ClickHouseServer, clickHouseMissing, startClickHouse } from '../../bench/clickhouse-server.js';
