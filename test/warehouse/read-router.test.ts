// The readers' router alone, with a fake read service and an in-memory DuckDB as "the file": a reader asks
// the writer's service when there is one, else opens the file; a served read the writer drops
// (ReadServiceGone) runs again on the file; one too big for the writer's memory makes the reader read the file
// from then on; a hold() begins one served snapshot; a writer reads only its own file.
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReadRouter,
  FoundReadService,
  MAX_READ_ATTEMPTS,
  READER_ASKS_FOR_TURN_AFTER_MS,
  type ReadRouterOptions,
} from '../../src/warehouse/read-router.js';
import { type ReadServiceClient, ReadServiceGone } from '../../src/warehouse/read-service-client.js';
import type { StreamedRows } from '../../src/warehouse/warehouse.js';

let instance: DuckDBInstance;
let file: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  file = await instance.connect();
});
afterAll(() => {
  file.closeSync();
  instance.closeSync();
});

/** A fake writer's service: answers `served` or fails with what `fail` gives, and notes each call. */
function fakeService(fail?: () => Error): ReadServiceClient & { calls: string[] } {
  const calls: string[] = [];
  let closed = false;
  return {
    calls,
    get closed() {
      return closed;
    },
    async read() {
      calls.push('read');
      if (fail) throw fail();
      return 'served';
    },
    async *stream(): AsyncGenerator<StreamedRows> {
      calls.push('stream');
      if (fail) throw fail();
      yield { columns: ['from'], rows: [['served']] } as unknown as StreamedRows;
    },
    async begin() {
      calls.push('begin');
    },
    async end() {
      calls.push('end');
    },
    close() {
      calls.push('close');
      closed = true;
    },
  };
}

/** A reader's router whose service lookups answer from `services` in turn (undefined: none serves). */
function reader(services: (ReadServiceClient | undefined)[], more: Partial<ReadRouterOptions> = {}) {
  const seen = { lookups: 0, connects: 0, holding: false, logged: [] as string[] };
  const router = createReadRouter({
    path: '/data/warehouse.duckdb',
    served: true,
    openConnection: () => undefined,
    connect: async () => {
      seen.connects++;
      return file;
    },
    isHolding: () => seen.holding,
    findReadService: async () => {
      seen.lookups++;
      return services.shift();
    },
    log: pino({ level: 'info' }, { write: (line: string) => seen.logged.push(line) }),
    ...more,
  });
  return { router, seen };
}

const ONE = { op: 'query', sql: 'SELECT 1 AS one' } as const;

describe("the readers' router", () => {
  it('a reader sends its reads to the writer that serves', async () => {
    const service = fakeService();
    const { router, seen } = reader([service]);
    expect(await router.read(ONE)).toBe('served');
    expect(await router.read(ONE)).toBe('served');
    expect(service.calls).toEqual(['read', 'read']);
    expect(seen).toMatchObject({ lookups: 1, connects: 0 });
  });

  it('without a serving writer, a reader opens the file', async () => {
    const { router, seen } = reader([undefined]);
    expect(await router.read(ONE)).toEqual([{ one: 1 }]);
    expect(seen).toMatchObject({ lookups: 1, connects: 1 });
  });

  it('a reader with the file open reads it without looking for a service', async () => {
    const { router, seen } = reader([fakeService()], { openConnection: () => file });
    expect(await router.read(ONE)).toEqual([{ one: 1 }]);
    expect(seen.lookups).toBe(0);
  });

  it('a served read the writer drops (ReadServiceGone) runs again on the file', async () => {
    const gone = fakeService(() => new ReadServiceGone());
    const { router, seen } = reader([gone, undefined]);
    expect(await router.read(ONE)).toEqual([{ one: 1 }]);
    expect(gone.calls).toEqual(['read', 'close']);
    expect(seen).toMatchObject({ lookups: 2, connects: 1 });
  });

  it('a writer that keeps dropping the read fails it as warehouse.locked after the last attempt', async () => {
    const services = Array.from({ length: MAX_READ_ATTEMPTS + 1 }, () =>
      fakeService(() => new ReadServiceGone()),
    );
    const { router, seen } = reader([...services]);
    await expect(router.read(ONE)).rejects.toMatchObject({ code: 'warehouse.locked', kind: 'transient' });
    expect(seen.lookups).toBe(MAX_READ_ATTEMPTS);
    expect(seen.connects).toBe(0);
  });

  it('a read too big for the writer’s memory: the reader reads the file from then on', async () => {
    const small = fakeService(() => new Error('Out of Memory Error: could not allocate block'));
    const { router, seen } = reader([small, fakeService()]);
    expect(await router.read(ONE)).toEqual([{ one: 1 }]);
    expect(seen.logged.join('')).toMatch(/too little memory/);
    expect(await router.read(ONE)).toEqual([{ one: 1 }]);
    expect(seen).toMatchObject({ lookups: 1, connects: 2 });
    // and while it waits for the file it asks for a turn at once
    expect(await router.lookWhileWaiting(0)).toBe(true);
  });

  it('other failures of a served read are the query’s, not retried', async () => {
    const failing = fakeService(() => new Error('Binder Error: no such column'));
    const { router, seen } = reader([failing]);
    await expect(router.read(ONE)).rejects.toMatchObject({ code: 'warehouse.query_failed' });
    expect(seen.connects).toBe(0);
  });

  it('waiting for the lock, a reader switches to a writer that serves, or asks for a turn after a second', async () => {
    const late = fakeService();
    const { router, seen } = reader([undefined, undefined, undefined, late, fakeService()], {
      connect: async () => {
        seen.connects++;
        // the open's wait for the lock: lookWhileWaiting is called at each failed attempt
        expect(await router.lookWhileWaiting(100)).toBe(false);
        expect(await router.lookWhileWaiting(READER_ASKS_FOR_TURN_AFTER_MS)).toBe(true);
        await router.lookWhileWaiting(1_500);
        throw new Error('not reached');
      },
    });
    expect(await router.read(ONE)).toBe('served');
    expect(seen.logged.join('')).toMatch(/reading through the writer after waiting/);
    const found = await router.lookWhileWaiting(250).catch((error: unknown) => error);
    expect(found).toBeInstanceOf(FoundReadService);
    expect(found).toMatchObject({ waitedMs: 250 });
  });

  it('a hold() begins one served snapshot, handed back once at its end', async () => {
    const service = fakeService();
    const { router, seen } = reader([service]);
    seen.holding = true;
    await router.read(ONE);
    await router.read(ONE);
    expect(service.calls).toEqual(['begin', 'read', 'read']);
    expect(router.takeHeldSnapshot()).toBe(service);
    expect(router.takeHeldSnapshot()).toBeUndefined();
  });

  it('a stream whose writer drops it before the first chunk starts again on the file', async () => {
    const gone = fakeService(() => new ReadServiceGone());
    const { router } = reader([gone, undefined]);
    const { rows, first } = await router.openStream('SELECT 42 AS n');
    expect(first.done).toBe(false);
    expect(JSON.stringify(first.value)).toContain('42');
    await rows.return(undefined);
    expect(gone.calls).toEqual(['stream', 'close']);
  });

  it('a writer reads its own file, opened for each operation, and never looks for a service', async () => {
    const { router, seen } = reader([fakeService()], { served: false, openConnection: () => file });
    expect(await router.read(ONE)).toEqual([{ one: 1 }]);
    expect(seen).toMatchObject({ lookups: 0, connects: 1 });
  });
});
