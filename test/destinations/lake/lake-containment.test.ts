// Nothing outside the lake is written or removed by `export parquet`, whatever someone who can write to a
// shared lake plants in it: a manifest naming `../victim`, an absolute path, a path through `..` or another
// project's partition is refused before anything is removed; a link inside the lake leading out (a table's
// folder, a project's folder, `_manifests`, a manifest file) is found before a write or a removal goes
// through it; a project named `../../x` or one the warehouse does not hold is refused, nothing written.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportParquet } from '../../../src/destinations/lake/export-parquet.js';
import type { LakeTable } from '../../../src/destinations/lake-tables.js';
import { EtlError } from '../../../src/errors.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';

const EVENTS: LakeTable = { table: 'events', time: 'seen', key: [], secretColumns: [] };
const PROJECT = 'shop-bot';

let root: string;
let lake: string;
let victim: string;
let warehouse: Warehouse;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'lake-containment-'));
  lake = join(root, 'lake');
  victim = join(root, 'victim');
  mkdirSync(join(victim, 'date=2026-03-01'), { recursive: true });
  writeFileSync(join(victim, 'precious.txt'), 'keep me');
  writeFileSync(join(victim, 'date=2026-03-01', 'data.parquet'), 'not the lake’s');
  warehouse = await openWarehouse({ path: join(root, 'warehouse.duckdb') });
  await warehouse.query('CREATE TABLE events (project VARCHAR, seen TIMESTAMPTZ, n INTEGER)');
  await warehouse.query(
    `INSERT INTO events VALUES ('${PROJECT}', '2026-03-01T10:00:00Z', 1), ('${PROJECT}', '2026-03-02T10:00:00Z', 2)`,
  );
});
afterEach(async () => {
  await warehouse.close();
  rmSync(root, { recursive: true, force: true });
});

const exportLake = (options: { projects?: string[] } = {}) =>
  exportParquet(warehouse, lake, { tables: [EVENTS], ...options });

/** Every file and folder under `dir`, with the text of each file: what must not change. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length)] = entry.isFile() ? readFileSync(path, 'utf8') : '(folder)';
  }
  return out;
}

async function refusal(run: Promise<unknown>): Promise<EtlError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EtlError);
  return error as EtlError;
}

/** The project's manifest with one more partition of `events` named `path`. */
function forgeManifest(path: string): void {
  const file = join(lake, '_manifests', `${PROJECT}.json`);
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  manifest.tables.events.partitions.push({ path, rows: 1, fingerprint: '1' });
  writeFileSync(file, JSON.stringify(manifest));
}

describe('a forged manifest entry', () => {
  for (const forged of [
    '../victim',
    '../victim/date=2026-03-01',
    'events/project=shop-bot/../../../victim',
    'events/project=other-bot/date=2026-03-01',
    'events/project=shop-bot/date=../../../victim',
  ])
    it(`${forged}: refused, nothing removed or written`, async () => {
      await exportLake();
      forgeManifest(forged);
      const before = snapshot(victim);
      const lakeBefore = snapshot(lake);
      await warehouse.query('DELETE FROM events WHERE n = 2'); // a day to remove, and the manifest's to rewrite
      const error = await refusal(exportLake());
      expect(error.code).toBe('lake.manifest_invalid');
      expect(error.exitCode).toBe(1);
      expect(error.message).toContain(JSON.stringify(forged));
      expect(error.message).toMatch(/nothing was written or removed/);
      expect(snapshot(victim)).toEqual(before);
      expect(snapshot(lake)).toEqual(lakeBefore);
    });

  it('an absolute path: refused, nothing removed', async () => {
    await exportLake();
    forgeManifest(victim);
    const before = snapshot(victim);
    const error = await refusal(exportLake());
    expect(error.code).toBe('lake.manifest_invalid');
    expect(snapshot(victim)).toEqual(before);
  });

  it('a manifest that is a link to a file outside: not read, not copied into _manifest.json', async () => {
    await exportLake();
    const secret = join(root, 'secret.json');
    writeFileSync(secret, JSON.stringify({ project: 'x', token: 'not-for-the-lake-1234' }));
    const other = join(lake, '_manifests', 'other-bot.json');
    symlinkSync(secret, other);
    const error = await refusal(exportLake());
    expect(error.code).toBe('lake.manifest_invalid');
    expect(error.message).toContain('other-bot.json');
    expect(readFileSync(join(lake, '_manifest.json'), 'utf8')).not.toContain('not-for-the-lake');
  });
});

describe('a link inside the lake that leads out', () => {
  it("a table's folder: no partition is written through it", async () => {
    mkdirSync(lake);
    symlinkSync(victim, join(lake, 'events'));
    const before = snapshot(victim);
    const error = await refusal(exportLake());
    expect(error.code).toBe('lake.path_outside');
    expect(error.message).toMatch(/leads out of/);
    expect(snapshot(victim)).toEqual(before);
  });

  it("a project's folder: a partition whose rows are gone is not removed through it", async () => {
    await exportLake();
    await warehouse.query('DELETE FROM events WHERE n = 1'); // 2026-03-01 is gone: its folder would be removed
    rmSync(join(lake, 'events', `project=${PROJECT}`), { recursive: true });
    symlinkSync(victim, join(lake, 'events', `project=${PROJECT}`));
    const before = snapshot(victim);
    const error = await refusal(exportLake());
    expect(error.code).toBe('lake.path_outside');
    expect(snapshot(victim)).toEqual(before);
    expect(existsSync(join(victim, 'date=2026-03-01', 'data.parquet'))).toBe(true);
  });

  it('_manifests: no manifest is written through it', async () => {
    mkdirSync(lake);
    symlinkSync(victim, join(lake, '_manifests'));
    const before = snapshot(victim);
    const error = await refusal(exportLake());
    expect(error.code).toBe('lake.path_outside');
    expect(snapshot(victim)).toEqual(before);
  });

  it('a dangling link at a partition folder: nothing is made where it points', async () => {
    mkdirSync(join(lake, 'events'), { recursive: true });
    const target = join(root, 'made-through-link');
    symlinkSync(target, join(lake, 'events', `project=${PROJECT}`));
    const error = await refusal(exportLake());
    expect(error.code).toBe('lake.path_outside');
    expect(existsSync(target)).toBe(false);
  });

  it('a link that stays inside the lake is followed', async () => {
    mkdirSync(join(lake, 'real-events'), { recursive: true });
    symlinkSync(join(lake, 'real-events'), join(lake, 'events'));
    const result = await exportLake();
    expect(result.written).toHaveLength(2);
    expect(readdirSync(join(lake, 'real-events', `project=${PROJECT}`)).sort()).toEqual([
      'date=2026-03-01',
      'date=2026-03-02',
    ]);
  });
});

describe('a project named on the command line', () => {
  for (const name of ['../../x', '..', 'a/b', '/etc', 'tab\there', ''])
    it(`${JSON.stringify(name)}: refused (exit 2), nothing written`, async () => {
      const before = snapshot(root);
      const error = await refusal(exportLake({ projects: [name] }));
      expect(error.code).toBe('lake.project_unsafe');
      expect(error.exitCode).toBe(2);
      expect(snapshot(root)).toEqual(before);
      expect(existsSync(lake)).toBe(false);
    });

  it('one the warehouse holds no data of: refused (exit 2), naming those it holds; nothing written', async () => {
    const error = await refusal(exportLake({ projects: ['shopbot'] }));
    expect(error.code).toBe('lake.project_unknown');
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('it holds shop-bot');
    expect(existsSync(join(lake, '_manifests', 'shopbot.json'))).toBe(false);
    expect(existsSync(join(lake, 'events'))).toBe(false);
  });

  it('a project of the warehouse whose name holds a slash gets a manifest inside the lake', async () => {
    await warehouse.query("INSERT INTO events VALUES ('../../escape', '2026-03-01T10:00:00Z', 3)");
    const result = await exportLake();
    expect(result.projects).toEqual(['../../escape', PROJECT]);
    expect(existsSync(join(lake, '_manifests', '..%2F..%2Fescape.json'))).toBe(true);
    expect(existsSync(join(root, 'escape.json'))).toBe(false);
    expect(readdirSync(join(lake, 'events')).sort()).toEqual([
      'project=..%2F..%2Fescape',
      `project=${PROJECT}`,
    ]);
  });
});
