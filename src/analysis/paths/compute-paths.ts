// Computes the dialog paths of a period over the warehouse (docs/paths.md): the selection checked, then
// flows.sql (every figure of the period and the platform's routes beside ours, in one pass over its sessions'
// messages), the previous period's coverage and, when it is covered, its counts of the top routes
// (previous.sql). The caller holds the warehouse (one snapshot) and checks the time zone.
import { assertFromBeforeTo } from '../../time/check-period.js';
import type { SqlParam, Warehouse } from '../../warehouse/warehouse.js';
import { type CheckedSelection, checkSelection } from './check-selection.js';
import { loadPathsSql, type PathsSql, pickParams } from './load-paths-sql.js';
import {
  type ChannelPaths,
  FLOW_STEPS,
  PATHS_SCHEMA_VERSION,
  type PathsQuery,
  type PathsReport,
} from './paths-report.js';
import { comparedDays, readPlatformRoutes } from './platform-routes.js';
import {
  type PreviousCounts,
  readPreviousPeriod,
  readPreviousRoutes,
  withPrevious,
} from './previous-period.js';
import { type ClusterLabels, EVERY_CHANNEL, emptyTotals, type FlowFigures, readFlows } from './read-flows.js';

/** States per position the flow chart may draw, and moves between positions. */
export const FLOW_NODES = 6;
export const FLOW_LINKS = 30;
/** Routes of the platform listed beside ours (those that differ first). */
export const PLATFORM_ROWS = 50;

export async function computePaths(
  warehouse: Warehouse,
  query: PathsQuery,
  options: { now?: () => number; sql?: PathsSql } = {},
): Promise<PathsReport> {
  assertFromBeforeTo(query.from, query.to);
  const sql = options.sql ?? loadPathsSql();
  const selection = await checkSelection(warehouse, sql, query);
  const params: Record<string, SqlParam> = {
    projects: selection.projects,
    all_channels: selection.channels === undefined,
    channels: selection.channels ?? [],
    from: new Date(query.from),
    to: new Date(query.to),
    previous_from: new Date(query.from - (query.to - query.from)),
    catch_all: query.catchAllClass,
    top: query.top,
    steps: FLOW_STEPS,
    flow_nodes: FLOW_NODES,
    flow_links: FLOW_LINKS,
  };
  const run = await findUnhandledRun(warehouse, sql, query, selection);
  const flowRows = await warehouse.query(
    sql.flows,
    pickParams(sql.flows, {
      ...params,
      ...comparedDays(query),
      platform_top: PLATFORM_ROWS,
      run_id: run?.runId ?? '',
    }),
  );
  const flows = readFlows(flowRows, run?.labels ?? null);
  const previous = await readPreviousPeriod(warehouse, sql, params, query);
  let counts: PreviousCounts | null = null;
  if (previous.covered) {
    const routes = new Set([...flows.routes.values()].flat().map((r) => r.route));
    counts = await readPreviousRoutes(warehouse, sql, params, [...routes]);
    previous.withPath = counts.withPath.get(EVERY_CHANNEL) ?? 0;
  }
  const platform = readPlatformRoutes(flowRows, query);
  const all = channelPaths(flows, EVERY_CHANNEL, counts, query.top);
  return {
    schemaVersion: PATHS_SCHEMA_VERSION,
    generatedAt: new Date((options.now ?? Date.now)()).toISOString(),
    window: { from: new Date(query.from).toISOString(), to: new Date(query.to).toISOString() },
    timeZone: query.timeZone,
    filters: { projects: selection.projects, channels: selection.channels ?? null },
    catchAllClass: query.catchAllClass,
    totals: all.totals,
    states: all.states,
    transitions: all.transitions,
    routes: all.routes,
    previous,
    unhandledRun: run && {
      runId: run.runId,
      catchAllQuestions: all.states.reduce((sum, s) => sum + s.catchAllAfter, 0),
      inClusters: countClustered(flows),
    },
    flow: { steps: FLOW_STEPS, stepSessions: flows.stepSessions, nodes: flows.nodes, links: flows.links },
    byChannel: [...flows.totals.keys()]
      .filter((c) => c !== EVERY_CHANNEL)
      .sort()
      .map((c) => channelPaths(flows, c, counts, query.top)),
    platform,
  };
}

/** One channel's figures ('' every channel): its states, top transitions and routes with the previous period. */
function channelPaths(
  flows: FlowFigures,
  channel: string,
  counts: PreviousCounts | null,
  top: number,
): ChannelPaths {
  const totals = flows.totals.get(channel) ?? emptyTotals();
  return {
    channel,
    totals,
    states: flows.states.get(channel) ?? [],
    transitions: (flows.transitions.get(channel) ?? []).slice(0, top),
    routes: withPrevious(flows.routes.get(channel) ?? [], totals.withPath, counts && { counts, channel }),
  };
}

/** Catch-all questions after a state that the stored run put in a cluster. */
function countClustered(flows: FlowFigures): number {
  let n = 0;
  for (const list of flows.clusters.values()) for (const c of list) if (c.id !== null) n += c.questions;
  return n;
}

/**
 * The stored `reporter-etl unhandled` run of exactly this period and selection (its one project, or every
 * project: stored as ''; one channel or every one; the same catch-all class), with its clusters' ranks and
 * labels; null without one.
 */
async function findUnhandledRun(
  warehouse: Warehouse,
  sql: PathsSql,
  query: PathsQuery,
  selection: CheckedSelection,
): Promise<{ runId: string; labels: ClusterLabels } | null> {
  if (selection.channels !== undefined && selection.channels.length > 1) return null;
  // a run of every project is stored as project '': it is the run of a selection of all of them
  const projects = selection.everyProject ? [''] : [];
  if (selection.projects.length === 1) projects.push(selection.projects[0]!);
  for (const project of projects) {
    const params = {
      project,
      channel: selection.channels?.[0] ?? '',
      catch_all: query.catchAllClass,
      from: new Date(query.from),
      to: new Date(query.to),
    };
    const runs = await warehouse.query(sql['unhandled-run'], pickParams(sql['unhandled-run'], params));
    const runId = runs[0]?.['run_id'];
    if (typeof runId !== 'string') continue;
    const clusters = await warehouse.query(sql['unhandled-clusters'], { run_id: runId });
    const labels = clusters.map(
      (c) => [String(c['cluster_id']), { rank: Number(c['rank']), label: String(c['label']) }] as const,
    );
    return { runId, labels: new Map(labels) };
  }
  return null;
}
