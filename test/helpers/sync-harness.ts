// Test harness for sync: an emulator on port 0, a warehouse in a temp dir, a Config pointing at both, and
// the comparison of the warehouse with the emulator's ground truth of the synced range.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type Config, loadConfig } from '../../src/config.js';
import { DEFAULT_V1_TOKEN, defaultLegacyToken, type EmulatorOptions } from '../../src/emulator/emulator.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { type GroundTruth, groundTruth } from '../../src/emulator/truth.js';
import { silentLogger } from '../../src/log.js';
import { type SyncOptions, type SyncSummary, syncProject } from '../../src/sources/reporter/run-sync.js';
import type { SourceRunResult, SourceUnit } from '../../src/sources/source-unit.js';
import { LEASE } from '../../src/warehouse/lease.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { TEST_NOW } from './emulator-client.js';

export interface Harness {
  running: RunningEmulator;
  dir: string;
  env: Record<string, string>;
  config: Config;
  sync(options?: SyncOptions, env?: Record<string, string>): Promise<SyncSummary>;
  withWarehouse<T>(fn: (w: Warehouse) => Promise<T>): Promise<T>;
  truth(from: number, to: number): GroundTruth;
  close(): Promise<void>;
}

/**
 * A harness of `sessions` sessions (no safety lag, so the last minutes are synced too), synced once: the setup
 * the report and CLI tests share. The sync must succeed.
 */
export async function createSyncedHarness(sessions = 300): Promise<Harness> {
  const h = await createHarness({ emulator: { sessions }, env: { REPORTER_SAFETY_LAG_MINUTES: '0' } });
  expect((await h.sync()).status).toBe('success');
  return h;
}

/**
 * The data dir one successful sync of a harness of `options` left (its emulator closed), for the tests of a file
 * that each start from that sync (`createHarness({ ...options, from })`): one sync instead of one per test. The
 * emulator is deterministic (its seed, its fixed clock), so a fresh one of the same options is the platform that
 * sync read; each harness gets its own copy and emulator. `remove` deletes the dir (afterAll).
 */
export async function syncedDataDir(
  options: Parameters<typeof createHarness>[0] = {},
): Promise<{ dir: string; remove(): void }> {
  const h = await createHarness(options);
  try {
    const summary = await h.sync();
    expect(summary.error).toBeNull();
    expect(summary.status).toBe('success');
    const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-synced-'));
    cpSync(h.dir, dir, { recursive: true });
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } finally {
    await h.close();
  }
}

/**
 * The harness syncs in the product's default windows of two days (two or three over its emulator's days: each
 * window commit costs the suite CPU); a test of how a sync goes window by window asks for more, smaller ones.
 */
export const TWELVE_HOUR_WINDOWS: Readonly<Record<string, string>> = { REPORTER_WINDOW_HOURS: '12' };

export async function createHarness(
  options: {
    emulator?: Partial<EmulatorOptions>;
    api?: 'v1' | 'legacy';
    env?: Record<string, string>;
    realClock?: boolean;
    /** A data dir to start from (a copy of it): the warehouse an earlier sync left, see syncedDataDir. */
    from?: string;
  } = {},
): Promise<Harness> {
  // child processes run the CLI on the real clock: their emulator must start at the real time too
  const now = options.realClock ? Math.floor(Date.now() / 1000) * 1000 : TEST_NOW;
  const running = await startEmulator({ sessions: 1200, days: 3, now, ...options.emulator });
  const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-sync-'));
  if (options.from !== undefined) cpSync(options.from, dir, { recursive: true });
  const api = options.api ?? 'v1';
  const env: Record<string, string> = {
    REPORTER_BASE_URL: running.url,
    REPORTER_TOKEN: api === 'v1' ? DEFAULT_V1_TOKEN : defaultLegacyToken('shop-bot'),
    REPORTER_API: api,
    REPORTER_DATA_DIR: dir,
    REPORTER_HISTORY_DAYS: '4',
    REPORTER_WINDOW_HOURS: '48',
    REPORTER_SAFETY_LAG_MINUTES: '5',
    REPORTER_LOCK_WAIT_SECONDS: '2',
    // vitest.config.ts's one DuckDB thread, as the CLI children get it
    ...(process.env['REPORTER_DUCKDB_THREADS']
      ? { REPORTER_DUCKDB_THREADS: process.env['REPORTER_DUCKDB_THREADS'] }
      : {}),
    ...options.env,
  };
  const config = loadConfig(env);
  const harness: Harness = {
    running,
    dir,
    env,
    config,
    async sync(syncOptions = {}, extraEnv = {}) {
      const cfg = Object.keys(extraEnv).length > 0 ? loadConfig({ ...env, ...extraEnv }) : config;
      return harness.withWarehouse((warehouse) =>
        syncProject(
          {
            config: cfg,
            warehouse,
            log: silentLogger(),
            now: () => running.emulator.now(),
            backoffBaseMs: 5,
          },
          cfg.projects[0]!,
          syncOptions,
        ),
      );
    },
    async withWarehouse(fn) {
      const warehouse = await openWarehouse({
        path: config.warehousePath,
        lockWaitMs: 2000,
        threads: config.threads,
      });
      try {
        return await fn(warehouse);
      } finally {
        await warehouse.close();
      }
    },
    truth(from, to) {
      return groundTruth(running.emulator.project('shop-bot'), { now: running.emulator.now(), from, to });
    },
    async close() {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return harness;
}

/** What the warehouse holds for [from, to), in the shape of the ground truth. */
export async function warehouseFigures(w: Warehouse, from: number, to: number) {
  const f = new Date(from);
  const t = new Date(to);
  const sessionIds = (
    await w.query(
      'select session_id from sessions where start_time >= $1 and start_time < $2 order by session_id',
      [f, t],
    )
  ).map((r) => r['session_id'] as string);
  const messageIds = (
    await w.query(
      'select question_id from messages where timestamp >= $1 and timestamp < $2 order by question_id',
      [f, t],
    )
  ).map((r) => r['question_id'] as string);
  const dupSessions = await w.query('select count(*) - count(distinct session_id) as d from sessions');
  const dupMessages = await w.query('select count(*) - count(distinct question_id) as d from messages');
  const sessionLabels = Object.fromEntries(
    (
      await w.query(
        'select l.label_name, count(*) as n from session_labels l join sessions s using (project, session_id) where s.start_time >= $1 and s.start_time < $2 group by 1',
        [f, t],
      )
    ).map((r) => [r['label_name'], r['n']]),
  );
  const messageLabels = Object.fromEntries(
    (
      await w.query(
        'select l.label_name, count(*) as n from message_labels l join messages m using (project, question_id) where m.timestamp >= $1 and m.timestamp < $2 group by 1',
        [f, t],
      )
    ).map((r) => [r['label_name'], r['n']]),
  );
  const statuses: Record<string, Record<string, number>> = {};
  for (const r of await w.query(
    'select s.channel_type, m.status, count(*) as n from messages m join sessions s using (project, session_id) where m.timestamp >= $1 and m.timestamp < $2 and m.status is not null group by 1, 2',
    [f, t],
  )) {
    (statuses[r['channel_type'] as string] ??= {})[r['status'] as string] = r['n'] as number;
  }
  const sessionData = Object.fromEntries(
    (
      await w.query(
        "select d.key || '=' || d.value as kv, count(*) as n from session_data d join sessions s using (project, session_id) where s.start_time >= $1 and s.start_time < $2 group by 1",
        [f, t],
      )
    ).map((r) => [r['kv'], r['n']]),
  );
  return {
    sessionIds,
    messageIds,
    duplicates: (dupSessions[0]!['d'] as number) + (dupMessages[0]!['d'] as number),
    sessionLabels,
    messageLabels,
    statuses,
    sessionData,
  };
}

/** The figures both warehouseFigures and the ground truth give, compared by expectWarehouseEqualsTruth. */
export type TruthFigure =
  | 'sessionIds'
  | 'messageIds'
  | 'sessionLabels'
  | 'messageLabels'
  | 'statuses'
  | 'sessionData';

/**
 * Asserts that the warehouse holds no duplicate and equals the emulator's ground truth of [from, to) in each
 * of `figures`; returns the truth for the caller's further checks.
 */
export async function expectWarehouseEqualsTruth(
  h: Harness,
  from: number,
  to: number,
  figures: readonly TruthFigure[],
): Promise<GroundTruth> {
  const truth = h.truth(from, to);
  const held = await h.withWarehouse((w) => warehouseFigures(w, from, to));
  expect(held.duplicates).toBe(0);
  for (const figure of figures) expect(held[figure], figure).toEqual(truth[figure]);
  return truth;
}

/** Moves the heartbeat of every running run back past its lease: what LEASE.staleMs without a beat does. */
export async function ageRunningLeases(h: Harness): Promise<void> {
  await h.withWarehouse((w) =>
    w.query(
      `UPDATE etl_runs SET heartbeat_at = heartbeat_at - INTERVAL ${Math.ceil(LEASE.staleMs / 1000) + 1} SECOND WHERE status = 'running'`,
    ),
  );
}

/** One run of a source unit's `run` against the harness's emulator and warehouse, on the emulator's clock. */
export function runSourceOnce(h: Harness, source: SourceUnit): Promise<SourceRunResult> {
  if (source.run === undefined) throw new Error(`the source ${source.id} has no run`);
  const run = source.run.bind(source);
  return h.withWarehouse((warehouse) =>
    run({
      config: h.config,
      log: silentLogger(),
      now: () => h.running.emulator.now(),
      trigger: 'manual',
      signal: new AbortController().signal,
      warehouse,
    }),
  );
}
