// The writer serves reads (read-service.ts): a reader opened while a writer holds the file sends its reads to
// that writer (each test keeps the writer inside hold(), where it never lets go of the file, and one process
// cannot open a file twice: every read that succeeds there was served), sees each commit at once, a hold() sees one snapshot, a write is
// refused, a long result streams and can be broken off, and when the writer lets go the reader reads the
// file itself.
import { existsSync, lstatSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EtlError } from '../../src/errors.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import { readServiceSocketOf } from '../../src/warehouse/read-service-protocol.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { makeTempDir } from './fixtures.js';

let temp: ReturnType<typeof makeTempDir>;
const opened: Warehouse[] = [];
beforeEach(() => {
  temp = makeTempDir();
});
afterEach(async () => {
  for (const warehouse of opened.splice(0)) await warehouse.close();
  temp.cleanup();
});

/** Runs `work` while the writer holds the file and cannot let go of it. */
const whileHeld = (writer: Warehouse, work: () => Promise<void>) => writer.hold(work);

async function open(access: 'read' | 'write', path = `${temp.dir}/warehouse.duckdb`): Promise<Warehouse> {
  const warehouse = await openWarehouse({ path, access, lockWaitMs: 3_000 });
  opened.push(warehouse);
  return warehouse;
}

const addState = (writer: Warehouse, key: string) =>
  writer.query("INSERT INTO etl_state VALUES ('p', $1, 'v', now())", [key]);
const countState = async (reader: Warehouse) =>
  (await reader.query('SELECT count(*) AS n FROM etl_state'))[0]?.['n'];

describe('a writer serves the reads of other processes', () => {
  it('a reader sees every commit while the writer keeps the file', async () => {
    const writer = await open('write');
    await whileHeld(writer, async () => {
      await addState(writer, 'a');
      const reader = await open('read');
      expect(await countState(reader)).toBe(1);
      await addState(writer, 'b');
      expect(await countState(reader)).toBe(2);
      expect(await reader.listRuns({ limit: 5 })).toEqual([]);
      expect(await reader.getWatermark('p')).toBeUndefined();
      // a Map crosses the socket as a Map
      expect(await reader.latestStatuses('p', ['none'])).toEqual(new Map());
    });
  });

  it('reads inside hold() see one snapshot; after it, the latest commit', async () => {
    const writer = await open('write');
    await whileHeld(writer, async () => {
      await addState(writer, 'a');
      const reader = await open('read');
      await reader.hold(async () => {
        expect(await countState(reader)).toBe(1);
        await addState(writer, 'b');
        expect(await countState(reader)).toBe(1);
      });
      expect(await countState(reader)).toBe(2);
    });
  });

  it('refuses a write sent by a reader and changes nothing', async () => {
    const writer = await open('write');
    await whileHeld(writer, async () => {
      const reader = await open('read');
      const failure = await reader
        .query("INSERT INTO etl_state VALUES ('p', 'x', 'v', now())")
        .catch((e) => e);
      expect(failure).toBeInstanceOf(EtlError);
      expect((failure as EtlError).code).toBe('warehouse.read_refused');
      expect((failure as Error).message).toMatch(/serves reads only: it is not a SELECT/);
      expect(await countState(writer)).toBe(0);
      // the reader goes on reading after the refusal
      expect(await countState(reader)).toBe(0);
    });
  });

  it('streams a long result in chunks, and a stream broken off leaves the reader usable', async () => {
    const writer = await open('write');
    await whileHeld(writer, async () => {
      const reader = await open('read');
      let rows = 0;
      let sum = 0;
      let chunks = 0;
      for await (const chunk of reader.streamRows('SELECT range AS n FROM range(100000)')) {
        chunks++;
        rows += chunk.rows.length;
        for (const [n] of chunk.rows) sum += n as number;
      }
      expect(rows).toBe(100_000);
      expect(sum).toBe((99_999 * 100_000) / 2);
      expect(chunks).toBeGreaterThan(1);
      for await (const chunk of reader.streamRows('SELECT range AS n FROM range(100000)')) {
        expect(chunk.rows.length).toBeGreaterThan(0);
        break;
      }
      expect(await countState(reader)).toBe(0);
    });
  });

  it('a Parquet file of a reader is written by the reader, from the bytes the writer answers', async () => {
    const writer = await open('write');
    await whileHeld(writer, async () => {
      await addState(writer, 'a');
      await addState(writer, 'b');
      const reader = await open('read');
      const file = `${temp.dir}/state.parquet`;
      await reader.writeParquet('SELECT key FROM etl_state ORDER BY key', file);
      expect(await writer.query(`SELECT key FROM read_parquet('${file}') ORDER BY key`)).toEqual([
        { key: 'a' },
        { key: 'b' },
      ]);
      // the writer checks the SELECT as any served read: a file stays out of reach
      await expect(
        reader.writeParquet("SELECT * FROM read_text('/etc/hostname')", `${temp.dir}/host.parquet`),
      ).rejects.toMatchObject({ code: 'warehouse.read_refused' });
      expect(existsSync(`${temp.dir}/host.parquet`)).toBe(false);
    });
  });

  it('a failed query names DuckDB’s reason', async () => {
    const writer = await open('write');
    await whileHeld(writer, async () => {
      const reader = await open('read');
      await expect(reader.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    });
  });

  it('when the writer lets go of the file, the reader reads the file itself', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const writer = await open('write', path);
    await addState(writer, 'a');
    const reader = await open('read', path);
    expect(await countState(reader)).toBe(1);
    await writer.close();
    expect(existsSync(readServiceSocketOf(path))).toBe(false);
    expect(await countState(reader)).toBe(1);
  });

  it('a socket left by a writer killed with -9 does not stop the next writer serving', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    await (await openWarehouse({ path })).close();
    writeFileSync(readServiceSocketOf(path), 'left over');
    const writer = await open('write', path);
    await whileHeld(writer, async () => {
      await addState(writer, 'a');
      const reader = await open('read', path);
      expect(await countState(reader)).toBe(1);
    });
  });

  it('a reader of a warehouse with no writer opens the file as before', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const writer = await openWarehouse({ path });
    await addState(writer, 'a');
    await writer.close();
    const reader = await open('read', path);
    expect(await countState(reader)).toBe(1);
  });

  it('a query too large for the writer’s memory is read from the file once the writer lets go', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const writer = await openWarehouse({ path, memoryLimit: '16MB' });
    opened.push(writer);
    await addState(writer, 'a');
    const reader = await open('read', path);
    expect(await countState(reader)).toBe(1);
    // a list of 5 million integers cannot spill: over the writer's 16 MB, within the reader's own 256 MB
    const rows = await reader.query('SELECT len(list(range)) AS n FROM range(5000000)');
    expect(rows).toEqual([{ n: 5_000_000 }]);
    await expect(writer.query('SELECT len(list(range)) AS n FROM range(5000000)')).rejects.toThrow(
      /Out of Memory/,
    );
  });

  it('a warehouse path too long for a socket is served beside it, through its folder', async () => {
    const dir = `${temp.dir}/${'long-folder-name-'.repeat(6)}`;
    const path = `${dir}/warehouse.duckdb`;
    const writer = await open('write', path);
    // no folder in /tmp that another user could have made first
    expect(readServiceSocketOf(path)).toBe(`${path}.readers.sock`);
    await whileHeld(writer, async () => {
      await addState(writer, 'a');
      expect(lstatSync(`${path}.readers.sock`).isSocket()).toBe(true);
      const reader = await open('read', path);
      expect(await countState(reader)).toBe(1);
    });
  });

  it('a writer closing cuts a served stream that runs too long, and its reader says what happened', async () => {
    const path = `${temp.dir}/warehouse.duckdb`;
    const writer = await openWarehouse({ path, lockWaitMs: 300 });
    opened.push(writer);
    const reader = await open('read', path);
    const rows = reader.streamRows('SELECT range AS n FROM range(10000000)');
    const iterator = rows[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    // the reader stops consuming; the writer closes and cuts the stream after its 300 ms
    const closing = writer.close();
    await closing;
    const failure = await (async () => {
      for (;;) if ((await iterator.next()).done) return undefined;
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EtlError);
    expect((failure as EtlError).code).toBe('warehouse.locked');
    expect((failure as Error).message).toMatch(/let go of it midway.*run the command again/);
    // and the reader reads the file itself afterwards
    expect(await countState(reader)).toBe(0);
  });
});
