// A reader that goes before its query starts (while the writer still connects, checks its SQL or begins its
// transaction) leaves no statement to interrupt at that moment: the query that follows must still be stopped,
// or it runs for hours and holds the writer (read-service.ts, interruptUntilDone). Deterministic: the SQL
// check waits until the reader's socket is gone.
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveReads } from '../../src/warehouse/read-service.js';
import { connectToReadService } from '../../src/warehouse/read-service-client.js';
import { makeTempDir } from './fixtures.js';

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(() => temp.cleanup());

const RUNAWAY = 'select sum(a.range * b.range) as s from range(10000000) a, range(10000000) b';

describe('a served read whose reader went before the query started', () => {
  it('is interrupted all the same: the service is idle again within seconds', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const instance = await DuckDBInstance.create(path);
    let readerGone = () => {};
    const gone = new Promise<void>((resolve) => (readerGone = resolve));
    let checked = () => {};
    const checking = new Promise<void>((resolve) => (checked = resolve));
    const service = await serveReads({
      instance,
      warehousePath: path,
      socketRoot: temp.dir,
      // the check is still running when the reader goes
      checkSql: async () => {
        checked();
        await gone;
      },
    });
    expect(service).toBeDefined();
    const client = await connectToReadService(path, { socketRoot: temp.dir });
    expect(client).toBeDefined();
    const answer = client!.read({ op: 'query', sql: RUNAWAY }).catch((e: unknown) => e);
    await checking;
    client!.close();
    // the writer sees the close before the check returns
    await new Promise((resolve) => setTimeout(resolve, 200));
    readerGone();
    await answer;
    const started = Date.now();
    while (service!.isBusy() && Date.now() - started < 20_000)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(service!.isBusy(), 'the runaway query still runs').toBe(false);
    await service!.stop(1_000);
    instance.closeSync();
  }, 60_000);
});
