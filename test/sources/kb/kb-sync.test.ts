// kb sync in-process against the knowledge base emulator: a snapshot equals the emulator's truth at its
// clock; a second one after the clock moved shows the sources that finished, failed, appeared or went away;
// faults (5xx, 429 with Retry-After) leave the snapshot exact; a key that expires while the run reads gives
// kb.auth and no snapshot rows at all; an invalid record is quarantined with its reason and an unknown status
// kept; without the administrative key the admin parts are skipped with a note; report kb-health's figures
// equal the truth of the two snapshots.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { kbEvalReport } from '../../../reports/kb-eval/report.js';
import { kbHealthReport } from '../../../reports/kb-health/report.js';
import { type Config, loadConfig } from '../../../src/config.js';
import type { Emulator } from '../../../src/emulator/emulator.js';
import { DEFAULT_KB_ADMIN_KEY, DEFAULT_KB_PROJECT_KEY } from '../../../src/emulator/kb/kb-options.js';
import { KB_GENERATED_KEYS, KB_MAIN_PROJECT_ID } from '../../../src/emulator/kb/kb-world.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { silentLogger } from '../../../src/log.js';
import { writeReport } from '../../../src/report/write-report.js';
import { type KbSyncSummary, syncKb } from '../../../src/sources/kb/sync-kb.js';
import { openWarehouse } from '../../../src/warehouse/open-warehouse.js';
import type { Warehouse } from '../../../src/warehouse/warehouse.js';
import { listedField, readWorkbook, sheetNamed } from '../../report/read-workbook.js';
import { kbTruth, snapshotRows } from './kb-truth.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** A UTC instant as the reports' notes name it, to the minute (2026-11-19 10:00). */
const formatLocalMinute = (t: number) => new Date(t).toISOString().slice(0, 16).replace('T', ' ');
const DAY = 86_400_000;
let dir: string;
let warehouse: Warehouse;
let running: RunningEmulator;
let e: Emulator;

function kbConfig(env: Record<string, string> = {}): Config {
  return loadConfig(
    {
      REPORTER_KB_BASE_URL: running.kbUrl,
      REPORTER_KB_KEY: DEFAULT_KB_PROJECT_KEY,
      REPORTER_KB_ADMIN_KEY: DEFAULT_KB_ADMIN_KEY,
      REPORTER_DATA_DIR: dir,
      REPORTER_RETRIES: '4',
      ...env,
    },
    { requireToken: false },
  );
}

function sync(
  config: Config = kbConfig(),
  client: { sleep?: (ms: number) => Promise<void> } = {},
): Promise<KbSyncSummary> {
  return syncKb({
    config,
    warehouse,
    log: silentLogger(),
    now: () => e.now(),
    client: { backoffBaseMs: 5, backoffCapMs: 20, ...client },
  });
}

async function snapshotCount(): Promise<number> {
  const [row] = await warehouse.query('SELECT count(*) AS n FROM kb_snapshots');
  return Number(row!['n']);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kb-sync-'));
  warehouse = await openWarehouse({ path: join(dir, 'warehouse.duckdb') });
  running = await startEmulator({ sessions: 100, days: 1, now: Date.parse('2026-11-20T10:00:00Z') });
  e = running.emulator;
});
afterEach(() => {
  e.faults.assertAllFired();
  e.faults.clear();
});
afterAll(async () => {
  await running.close();
  await warehouse.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('kb sync against the emulator', () => {
  let first: KbSyncSummary;

  it('stores a snapshot equal to the emulator’s truth at its clock', async () => {
    first = await sync();
    expect(first.status, first.error ?? '').toBe('success');
    expect(first.exitCode).toBe(0);
    expect(first.project).toEqual({ id: KB_MAIN_PROJECT_ID, name: 'support-kb' });
    const truth = kbTruth(e);
    expect(await snapshotRows(warehouse, first.snapshotId)).toEqual(truth);
    // the generated world has every kind the report looks for
    expect(truth.sources.some((s) => s['status'] === 'FAILED_TO_INGEST')).toBe(true);
    expect(truth.sources.some((s) => s['status'] !== 'INGESTED' && s['status'] !== 'FAILED_TO_INGEST')).toBe(
      true,
    );
    const [snapshot] = await warehouse.query('SELECT * FROM kb_snapshots WHERE snapshot_id = $id', {
      id: first.snapshotId,
    });
    const settings = e.kb.project(KB_MAIN_PROJECT_ID).settings as Record<string, any>;
    expect(snapshot).toMatchObject({
      project_id: KB_MAIN_PROJECT_ID,
      project_name: 'support-kb',
      project_status: 'ACTIVE',
      taken_at: e.now(),
      with_admin: true,
      rpm_limit: settings['generation'].rpmLimit,
      generation_model: settings['generation'].llm.model,
      search_pipeline: settings['search'].pipeline,
      sources: truth.sources.length,
      integrations: truth.integrations.length,
      segments: truth.segments.length,
      api_keys: truth.apiKeys.length,
      access_groups: truth.accessGroups.length,
      rejects: 0,
    });
    expect(JSON.parse(String(snapshot!['settings']))).toEqual({
      indexing: settings['indexing'],
      search: settings['search'],
      generation: settings['generation'],
    });
    const byStatus: Record<string, number> = {};
    for (const s of truth.sources) byStatus[String(s['status'])] = (byStatus[String(s['status'])] ?? 0) + 1;
    expect(first.sourcesByStatus).toEqual(byStatus);
    const [run] = await warehouse.listRuns({ job: 'kb-sync', limit: 1 });
    expect(run).toMatchObject({ runId: first.snapshotId, project: 'kb:support-kb', status: 'success' });
  });

  it('a second snapshot after the clock moved shows the changes; report kb-health equals the truth', async () => {
    // a new source that will fail (a type the indexer cannot read) and one that goes away
    const now = e.now();
    const added = e.kb.addSource(KB_MAIN_PROJECT_ID, { type: 'FILE', name: 'prices.exe', text: 'x' }, now);
    const removedId = e.kb.sourcesOf(KB_MAIN_PROJECT_ID).find((s) => s.id !== added.id)!.id;
    e.kb.sources.delete(removedId);
    // a key that will expire within 14 days of the second snapshot
    e.kb.createKey(
      KB_MAIN_PROJECT_ID,
      { name: 'partner-bot', expiredAt: new Date(now + 5 * DAY).toISOString() },
      now,
    );
    const before = kbTruth(e, first ? Date.parse(first.takenAt) : now);
    e.clock.advance(3 * HOUR);
    const second = await sync();
    expect(second.status, second.error ?? '').toBe('success');
    const truth = kbTruth(e);
    expect(await snapshotRows(warehouse, second.snapshotId)).toEqual(truth);
    // the queued and processing sources finished; the expiring key expired
    expect(truth.sources.every((s) => s['status'] === 'INGESTED' || s['status'] === 'FAILED_TO_INGEST')).toBe(
      true,
    );
    expect(truth.apiKeys.find((k) => k['name'] === 'ci-pipeline')!['status']).toBe('EXPIRED');
    const firstRows = await snapshotRows(warehouse, first.snapshotId);
    expect(firstRows.sources.find((s) => s['source_id'] === removedId)).toBeDefined();
    expect(truth.sources.find((s) => s['source_id'] === added.id)).toMatchObject({
      status: 'FAILED_TO_INGEST',
    });

    // the changes, from the two truths
    const was = new Map(firstRows.sources.map((s) => [s['source_id'], s['status']]));
    const is = new Map(truth.sources.map((s) => [s['source_id'], s['status']]));
    const expected: Record<string, number> = {
      'new failure': 0,
      'status changed': 0,
      added: 0,
      removed: 0,
    };
    for (const [id, status] of is) {
      const old = was.get(id);
      if (old === status) continue;
      if (status === 'FAILED_TO_INGEST') expected['new failure']!++;
      else if (old === undefined) expected['added']!++;
      else expected['status changed']!++;
    }
    for (const id of was.keys()) if (!is.has(id)) expected['removed']!++;
    expect(expected['new failure']).toBeGreaterThan(0);
    expect(expected['status changed']).toBeGreaterThan(0);
    expect(expected['removed']).toBe(1);
    expect(before.sources.length).toBe(firstRows.sources.length); // nothing else changed in between

    const taken = e.now();
    const stale = truth.integrations.filter(
      (i) =>
        i['auto_sync'] === true &&
        (i['last_successful_sync_at'] === null ||
          taken - Number(i['last_successful_sync_at']) > 2 * Number(i['sync_interval_minutes']) * MINUTE),
    );
    const expiring = truth.apiKeys.filter(
      (k) =>
        k['status'] === 'ACTIVE' &&
        k['expires_at'] !== null &&
        Number(k['expires_at']) > taken &&
        Number(k['expires_at']) - taken <= 14 * DAY,
    );
    const failed = truth.sources.filter((s) => s['status'] === 'FAILED_TO_INGEST');
    expect(stale.length).toBeGreaterThan(0);
    expect(expiring.map((k) => k['name'])).toEqual(['partner-bot']);

    const result = await writeReport({
      warehouse,
      report: kbHealthReport,
      from: taken - DAY,
      to: taken + MINUTE,
      tz: 'UTC',
      outDir: join(dir, 'reports'),
      formats: ['xlsx', 'html'],
    });
    const { sheets } = await readWorkbook(result.path);
    const health = sheetNamed(sheets, 'Health');
    // one record: printed as a list of its fields (src/report/table-rules.ts)
    const cell = (name: string) => listedField(health, name).value;
    expect(cell('Project')).toBe('support-kb');
    expect(cell('Sources')).toBe(truth.sources.length);
    expect(cell('Failed to ingest')).toBe(failed.length);
    expect(cell('Ingested')).toBe(truth.sources.length - failed.length);
    expect(cell('Stale integrations (>2× interval)')).toBe(stale.length);
    expect(cell('Keys expiring in 14 days')).toBe(expiring.length);
    expect(cell('New failures')).toBe(expected['new failure']);
    expect(cell('Other status changes')).toBe(expected['status changed']);
    expect(cell('Added sources')).toBe(expected['added']);
    expect(cell('Removed sources')).toBe(expected['removed']);
    const failures = sheetNamed(sheets, 'Failures');
    expect(failures.rows.map((r) => [r[1], r[4]])).toEqual(
      failed.map((s) => [s['source_id'], s['last_error']]),
    );
    const staleSheet = sheetNamed(sheets, 'Stale integrations');
    expect(staleSheet.rows.map((r) => r[1])).toEqual(stale.map((i) => i['integration_id']));
    expect(sheetNamed(sheets, 'Expiring keys').rows.map((r) => r[2])).toEqual(expiring.map((k) => k['name']));
    const changes = sheetNamed(sheets, 'Changes');
    const counted: Record<string, number> = { 'new failure': 0, 'status changed': 0, added: 0, removed: 0 };
    for (const r of changes.rows) counted[String(r[1])]!++;
    expect(counted).toEqual(expected);
    expect(changes.rows.find((r) => r[1] === 'removed')![2]).toBe(removedId);
    expect(result.files.map((f) => f.format)).toEqual(['xlsx', 'html']);
    // ids are identifiers, not quantities: no thousands separators in the workbook nor on the page
    const sourceIdColumn = failures.header.indexOf('Source ID') + 1;
    expect(failures.sheet.getRow(2).getCell(sourceIdColumn).numFmt).toBe('0');
    expect(listedField(health, 'Project ID').cell.numFmt).toBe('0');
    const page = readFileSync(result.files[1]!.path, 'utf8');
    const firstFailed = failed[0]!['source_id'] as number;
    expect(firstFailed).toBeGreaterThanOrEqual(1000);
    expect(page).toContain(`>${firstFailed}<`);
    expect(page).toContain(`>${KB_MAIN_PROJECT_ID}<`);
    expect(page).not.toContain(`>${firstFailed.toLocaleString('en-US')}<`);
    // the heading names no Reporter project (the warehouse's Reporter projects say nothing of it)
    expect(page).toContain('<h1>Knowledge base health</h1>');
    expect(page).not.toContain('(none)');
  });

  it('refuses --project for the knowledge base reports (they read no Reporter project)', async () => {
    for (const report of [kbHealthReport, kbEvalReport])
      await expect(
        writeReport({
          warehouse,
          report,
          from: Date.now() - DAY,
          to: Date.now(),
          projects: ['shop-bot'],
          tz: 'UTC',
          outDir: join(dir, 'reports'),
        }),
      ).rejects.toThrow(new RegExp(`--project does not apply to the ${report.id} report`));
  });

  it('keeps the snapshot exact through 5xx and 429 with Retry-After', async () => {
    e.faults.script({ type: 'status503', path: 'kb/sources', times: 2 });
    e.faults.script({ type: 'status429', path: 'kb/segments', times: 1, retryAfter: 1 });
    e.faults.script({ type: 'status500', path: 'kb/projects/7001/api-keys', times: 1 });
    e.faults.script({ type: 'status502', path: 'kb/access-groups', times: 1 });
    const started = Date.now();
    const summary = await sync();
    expect(summary.status, summary.error ?? '').toBe('success');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // the Retry-After was honoured
    expect(await snapshotRows(warehouse, summary.snapshotId)).toEqual(kbTruth(e));
  });

  it('a service that keeps failing gives kb.unavailable (exit 75) quoting its {code, description}, no snapshot', async () => {
    const count = await snapshotCount();
    e.faults.script({ type: 'status503', path: 'kb/integrations', times: 5 });
    const summary = await sync();
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'kb.unavailable', exitCode: 75 });
    expect(summary.error).toMatch(/GET knowledge base integrations failed after 5 attempts/);
    expect(summary.error).toMatch(/kb\.service_unavailable emulated 503/);
    expect(await snapshotCount()).toBe(count);
    const [rows] = await warehouse.query('SELECT count(*) AS n FROM kb_sources WHERE snapshot_id = $id', {
      id: summary.snapshotId,
    });
    expect(rows!['n']).toBe(0);
    const [run] = await warehouse.listRuns({ job: 'kb-sync', limit: 1 });
    expect(run).toMatchObject({ runId: summary.snapshotId, status: 'failed' });
    expect(run!.error).toMatch(/kb\.service_unavailable/);
  });

  it('quarantines an invalid record with its reason and keeps an unknown status as it came', async () => {
    const source = e.kb.sourcesOf(KB_MAIN_PROJECT_ID)[3]!;
    const sizeBytes = source.sizeBytes;
    source.sizeBytes = -5;
    const integration = e.kb.integrationsOf(KB_MAIN_PROJECT_ID)[0]!;
    const state = integration.state;
    (integration as { state: string }).state = 'DEGRADED';
    try {
      const summary = await sync();
      expect(summary).toMatchObject({ status: 'partial', exitCode: 3, rejects: 1 });
      const rejects = await warehouse.query(
        'SELECT project, endpoint, record_id, error, raw_json FROM etl_rejects WHERE run_id = $id',
        { id: summary.snapshotId },
      );
      expect(rejects).toHaveLength(1);
      expect(rejects[0]).toMatchObject({
        project: 'kb:support-kb',
        endpoint: 'sources',
        record_id: String(source.id),
      });
      expect(rejects[0]!['error']).toMatch(/sizeBytes/);
      expect(JSON.parse(String(rejects[0]!['raw_json']))).toMatchObject({ id: source.id, sizeBytes: -5 });
      const truth = kbTruth(e);
      const rows = await snapshotRows(warehouse, summary.snapshotId);
      expect(rows.sources).toEqual(truth.sources.filter((s) => s['source_id'] !== source.id));
      expect(rows.integrations.find((i) => i['integration_id'] === String(integration.id))!['status']).toBe(
        'DEGRADED',
      );
      expect(rows.integrations).toEqual(truth.integrations);
    } finally {
      source.sizeBytes = sizeBytes;
      (integration as { state: string }).state = state;
    }
  });

  it('an unexpected error (not the service: a bug) finishes the run as failed, never running, and is rethrown', async () => {
    const before = await snapshotCount();
    // the warehouse fails the snapshot's write with a plain TypeError, after the run was started
    const failing = new Proxy(warehouse, {
      get(target, key, receiver) {
        if (key === 'commitBatch')
          return async () => {
            throw new TypeError('an unexpected bug');
          };
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const started = Date.now();
    const error = await syncKb({
      config: kbConfig(),
      warehouse: failing,
      log: silentLogger(),
      now: () => e.now(),
      client: { backoffBaseMs: 5, backoffCapMs: 20 },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect(await snapshotCount()).toBe(before);
    const runs = await warehouse.query(
      "SELECT status, error FROM etl_runs WHERE job = 'kb-sync' AND status IN ('running', 'failed') AND error LIKE '%unexpected bug%'",
    );
    expect(runs).toEqual([{ status: 'failed', error: 'an unexpected bug' }]);
    expect(
      await warehouse.query(
        "SELECT count(*)::INTEGER AS n FROM etl_runs WHERE job = 'kb-sync' AND status = 'running'",
      ),
    ).toEqual([{ n: 0 }]);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('without REPORTER_KB_ADMIN_KEY skips the API keys and access groups with a note', async () => {
    const config = loadConfig(
      {
        REPORTER_KB_BASE_URL: running.kbUrl,
        REPORTER_KB_KEY: DEFAULT_KB_PROJECT_KEY,
        REPORTER_DATA_DIR: dir,
      },
      { requireToken: false },
    );
    const summary = await sync(config);
    expect(summary).toMatchObject({ status: 'success', apiKeys: null, accessGroups: null });
    expect(summary.notes.join(' ')).toMatch(/REPORTER_KB_ADMIN_KEY is not set/);
    const [snapshot] = await warehouse.query(
      'SELECT with_admin, api_keys, access_groups FROM kb_snapshots WHERE snapshot_id = $id',
      { id: summary.snapshotId },
    );
    expect(snapshot).toEqual({ with_admin: false, api_keys: null, access_groups: null });
    const rows = await snapshotRows(warehouse, summary.snapshotId);
    expect(rows.apiKeys).toEqual([]);
    expect(rows.sources).toEqual(kbTruth(e).sources);
  });

  it('a key that expires while the run reads gives kb.auth naming the setting, and no snapshot', async () => {
    const count = await snapshotCount();
    const key = e.kb.keyByValue(KB_GENERATED_KEYS.longLived)!;
    // the key expires in a minute; the run's first answer for segments fails, and while the client waits to
    // retry, the emulator's clock passes the expiry
    key.expiredAt = e.now() + MINUTE;
    e.faults.script({ type: 'status503', path: 'kb/segments', times: 1 });
    const summary = await sync(kbConfig({ REPORTER_KB_KEY: KB_GENERATED_KEYS.longLived }), {
      sleep: async () => {
        e.clock.advance(2 * MINUTE);
      },
    });
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'kb.auth', exitCode: 1 });
    expect(summary.error).toMatch(/refused REPORTER_KB_KEY \(the project key\) with 401/);
    expect(summary.error).toMatch(/key_expired/);
    expect(summary.error).not.toContain(KB_GENERATED_KEYS.longLived);
    expect(await snapshotCount()).toBe(count);
    for (const table of ['kb_sources', 'kb_integrations', 'kb_segments', 'kb_api_keys', 'kb_access_groups']) {
      const [row] = await warehouse.query(`SELECT count(*) AS n FROM ${table} WHERE snapshot_id = $id`, {
        id: summary.snapshotId,
      });
      expect(row!['n'], table).toBe(0);
    }
    const [run] = await warehouse.listRuns({ job: 'kb-sync', limit: 1 });
    expect(run).toMatchObject({ runId: summary.snapshotId, status: 'failed', project: 'kb:support-kb' });
  });
  it('a configured administrative key that is refused fails the run naming REPORTER_KB_ADMIN_KEY', async () => {
    const count = await snapshotCount();
    const summary = await sync(kbConfig({ REPORTER_KB_ADMIN_KEY: DEFAULT_KB_PROJECT_KEY }));
    expect(summary).toMatchObject({ status: 'failed', errorCode: 'kb.auth' });
    expect(summary.error).toMatch(/refused REPORTER_KB_ADMIN_KEY \(the administrative key\) with 403/);
    expect(await snapshotCount()).toBe(count);
  });

  it('the SQL examples of docs/kb.md run on the snapshots; the integrations query gives the truth', async () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../docs/kb.md'), 'utf8');
    const blocks = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim().replace(/;$/, ''));
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const sql of blocks) await warehouse.query(sql);
    const hours = await warehouse.query(blocks.find((b) => b.includes('hours_since'))!);
    const latest = await sync();
    const truth = kbTruth(e);
    const rows = await warehouse.query(blocks.find((b) => b.includes('hours_since'))!);
    expect(rows.map((r) => r['name']).sort()).toEqual(truth.integrations.map((i) => i['name']).sort());
    for (const i of truth.integrations) {
      const row = rows.find((r) => r['name'] === i['name'])!;
      const last = i['last_successful_sync_at'] as number | null;
      expect(row['hours_since']).toBe(
        last === null ? null : Math.round((Date.parse(latest.takenAt) - last) / 360_000) / 10,
      );
    }
    expect(hours.length).toBe(rows.length);
    // the "status over time" example names a source the emulator has: one row per snapshot holding it
    const overTime = blocks.find((b) => b.includes('s.source_id ='))!;
    const sourceId = Number(/s\.source_id = (\d+)/.exec(overTime)![1]);
    const source = truth.sources.find((x) => x['source_id'] === sourceId);
    expect(source, `source ${sourceId} of docs/kb.md`).toBeDefined();
    const history = await warehouse.query(overTime);
    const holding = await warehouse.query(
      'SELECT count(*)::INTEGER AS n FROM kb_sources WHERE source_id = $id',
      { id: sourceId },
    );
    expect(history.length).toBe(holding[0]!['n']);
    expect(history.length).toBeGreaterThan(0);
    expect(history.at(-1)!['status']).toBe(source!['status']);
  });
  it('report kb-health before any snapshot says "No data for <period>" and why on every sheet', async () => {
    const [first] = await warehouse.query('SELECT min(taken_at) AS t FROM kb_snapshots');
    const to = Number(first!['t']);
    const result = await writeReport({
      warehouse,
      report: kbHealthReport,
      from: to - DAY,
      to,
      tz: 'UTC',
      outDir: join(dir, 'reports-empty'),
    });
    expect(result).toMatchObject({ rows: 0, empty: true });
    const { sheets } = await readWorkbook(result.path);
    const said = `No data for ${formatLocalMinute(to - DAY)} – ${formatLocalMinute(to)} (UTC): no knowledge base snapshot before its end; run reporter-etl kb sync`;
    // never "No source failed to ingest": nothing was looked at; the note one sentence across the sheet (its
    // merged cells read back as the same text)
    for (const sheet of sheets) {
      expect(sheet.rows, sheet.name).toHaveLength(1);
      expect(sheet.rows[0]![0], sheet.name).toBe(said);
      expect(
        sheet.rows[0]!.every((cell) => cell === said || cell === null),
        sheet.name,
      ).toBe(true);
    }
  });
});
