// The shape of a source that reads the Reporter one UTC day at a time (state routes, telephony): for each
// configured project, the days to read (daily-days.ts), each read whole and written in ONE commitBatch with
// the source's cursor (etl_state `<id>.last_day`): the day's stored rows are replaced, so a row that stopped
// existing goes too, and a killed run loses at most the day in flight. A source folder states its table, staged
// columns and how to read one day; defineDailySource makes the unit and its job (the client loaded by a run).
import { EtlError, EXIT } from '../errors.js';
import type { ReporterHttp } from '../platform/reporter/reporter-http.js';
import { plural } from '../text/plural.js';
import { defineBatchTable } from '../warehouse/commit-batch.js';
import { readState } from '../warehouse/read-state.js';
import type { StagedTable } from '../warehouse/stage-rows.js';
import type { TableSpec } from '../warehouse/table-spec.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import { daysToRead } from './daily-days.js';
import type { SourceJobContext, SourceJobResult, SourceRunContext, SourceUnit } from './source-unit.js';

/** What every row of a daily table carries besides the source's own columns. */
export interface DayRow {
  project: string;
  /** yyyy-MM-dd, UTC. */
  day: string;
}

export interface DailySourceSpec<R extends DayRow> {
  /** The unit's and its job's id; the cursor is etl_state `<id>.last_day`. */
  id: string;
  describe: string;
  /** Its one table: keyed by project, day and its own columns; a day's rows replace the stored day. */
  table: TableSpec;
  /** The staged columns (project and day among them); synced_at is added as the commit's time. */
  stage: StagedTable<R>;
  /** node-cron expression of its job, in REPORTER_TZ. */
  defaultSchedule: string;
  /**
   * The day's rows of one project, read whole (an incomplete read throws: nothing of the day is stored). The
   * unit's file passes a function that imports its reader when called, so describing the unit loads no reader.
   */
  readDay(http: ReporterHttp, project: string, day: string): Promise<R[]>;
}

/** What a run did for one project. */
export interface DailyProjectResult {
  project: string;
  days: number;
  rows: number;
  error?: string;
  exitCode: number;
}

type DailyContext = SourceRunContext & { readonly warehouse: Warehouse; readonly runId?: string };

/** Writes one day of one project: its stored rows replaced and the cursor moved, in one transaction. */
async function writeDay<R extends DayRow>(
  spec: DailySourceSpec<R>,
  ctx: DailyContext,
  day: { project: string; day: string; rows: readonly R[] },
): Promise<void> {
  const at = new Date(ctx.now());
  await ctx.warehouse.commitBatch({
    tables: [
      defineBatchTable({
        spec: spec.table,
        stage: spec.stage,
        rows: day.rows,
        constants: { synced_at: at },
        // the day's stored rows go, whatever their key: a route that stopped existing leaves none behind
        replaceScope: { project: day.project, day: day.day },
      }),
    ],
    state: [{ project: day.project, key: `${spec.id}.last_day`, value: day.day }],
    ...(ctx.runId === undefined
      ? {}
      : { run: { runId: ctx.runId, add: () => ({ windows: 1 }), beatAt: at } }),
    at,
  });
}

/** Reads and writes the days of one configured project. */
async function syncProjectDays<R extends DayRow>(
  spec: DailySourceSpec<R>,
  ctx: DailyContext,
  projectConfig: SourceRunContext['config']['projects'][number],
): Promise<DailyProjectResult> {
  // the Reporter's client (undici, zod) is loaded when a run starts, never by the unit: the registries stay light
  const [{ reporterHttpOptions }, { ReporterHttp }, { resolveProjectName }] = await Promise.all([
    import('../platform/reporter/http-options.js'),
    import('../platform/reporter/reporter-http.js'),
    import('../platform/reporter/resolve-project.js'),
  ]);
  const http = new ReporterHttp(reporterHttpOptions(ctx.config, projectConfig, { log: ctx.log }));
  const result: DailyProjectResult = {
    project: projectConfig.project ?? '(default)',
    days: 0,
    rows: 0,
    exitCode: 0,
  };
  try {
    const project = await resolveProjectName(http, projectConfig);
    if (http.api === 'v1') http.project = project;
    result.project = project;
    const lastRead = await readState(ctx.warehouse, project, `${spec.id}.last_day`);
    const { historyMs, lookbackMs } = ctx.config;
    for (const day of daysToRead({ now: ctx.now(), lastRead, historyMs, lookbackMs })) {
      if (ctx.signal.aborted) break;
      const rows = await spec.readDay(http, project, day);
      await writeDay(spec, ctx, { project, day, rows });
      result.days++;
      result.rows += rows.length;
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
    result.exitCode = error instanceof EtlError ? error.exitCode : EXIT.failed;
    ctx.log.error({ project: result.project, err: error }, `${spec.id}: ${result.error}`);
  } finally {
    await http.close();
  }
  return result;
}

/** One run over every configured project; a failed project does not stop the others. */
export async function runDailySource<R extends DayRow>(
  spec: DailySourceSpec<R>,
  ctx: DailyContext,
): Promise<DailyProjectResult[]> {
  if (ctx.config.projects.length === 0)
    throw new EtlError(
      'config.missing',
      `REPORTER_TOKEN: is required by ${spec.id} (or REPORTER_CONFIG with "projects")`,
      {
        kind: 'usage',
      },
    );
  const results: DailyProjectResult[] = [];
  for (const projectConfig of ctx.config.projects) {
    if (ctx.signal.aborted) break;
    results.push(await syncProjectDays(spec, ctx, projectConfig));
  }
  return results;
}

/** The job's outcome: success, partial when some projects failed, failed (with their exit code) when all did. */
export function describeDailyResults(id: string, results: readonly DailyProjectResult[]): SourceJobResult {
  const failed = results.filter((r) => r.error !== undefined);
  const lines = results.map((r) =>
    r.error === undefined
      ? `${r.project}: ${plural(r.days, 'day')}, ${plural(r.rows, 'row')}`
      : `${r.project}: ${r.error}`,
  );
  const summary = `${id}: ${lines.join('; ') || 'stopped before the first project'}`;
  if (failed.length === 0) return { status: 'success', summary, exitCode: EXIT.ok, details: results };
  const error = failed.map((r) => `${r.project}: ${r.error}`).join('; ');
  if (failed.length < results.length)
    return { status: 'partial', summary, error, exitCode: EXIT.partial, details: results };
  return { status: 'failed', summary, error, exitCode: failed[0]!.exitCode, details: results };
}

/** The unit of a daily source: its table, its job (`run <id>`, scheduled) and its run. */
export function defineDailySource<R extends DayRow>(spec: DailySourceSpec<R>): SourceUnit {
  return {
    id: spec.id,
    describe: spec.describe,
    settings: {},
    tables: [spec.table],
    // source.incomplete is the kit's, shared by every daily source: no unit claims it alone
    errorCodes: [],
    jobs: [
      {
        id: spec.id,
        describe: spec.describe,
        defaultSchedule: spec.defaultSchedule,
        needsApi: true,
        run: (ctx: SourceJobContext) =>
          ctx.useWarehouse(async (warehouse) =>
            describeDailyResults(spec.id, await runDailySource(spec, { ...ctx, warehouse })),
          ),
      },
    ],
    commands: [],
    async run(ctx) {
      const result = describeDailyResults(spec.id, await runDailySource(spec, ctx));
      return { status: result.status, summary: result.summary };
    },
  };
}
