// Parsing DuckDB's lock error: the holder's program and PID when DuckDB names them, a plain
// "DuckDB did not say" otherwise.
import { describe, expect, it } from 'vitest';
import { describeLockHolder, isLockError, parseLockHolder } from '../../src/warehouse/parse-lock-holder.js';

const MESSAGE =
  'IO Error: Could not set lock on file "/data/warehouse.duckdb": Conflicting lock is held in /usr/bin/node ' +
  '(PID 7423). See also https://duckdb.org/docs/stable/connect/concurrency';

describe('parseLockHolder', () => {
  it('reads the program and PID', () => {
    expect(parseLockHolder(MESSAGE)).toEqual({ program: '/usr/bin/node', pid: 7423 });
    expect(isLockError(new Error(MESSAGE))).toBe(true);
  });

  it('reads a user when DuckDB names one, and programs with spaces', () => {
    const message = 'Conflicting lock is held in /opt/My Tools/duckdb (PID 12) by user ann. See also x';
    expect(parseLockHolder(message)).toEqual({ program: '/opt/My Tools/duckdb', pid: 12, user: 'ann' });
    expect(describeLockHolder(parseLockHolder(message))).toBe('/opt/My Tools/duckdb (PID 12, user ann)');
  });

  it('says plainly when the holder is not named', () => {
    const message = 'IO Error: Could not set lock on file "/x.duckdb": Resource temporarily unavailable';
    expect(isLockError(new Error(message))).toBe(true);
    expect(parseLockHolder(message)).toBeUndefined();
    expect(describeLockHolder(undefined)).toBe('another process (DuckDB did not say which one)');
    expect(isLockError(new Error('Catalog Error: Table with name x does not exist'))).toBe(false);
  });
});
