// The `paths` report: where the period's conversations went through the bot's states and where they got lost
// (docs/paths.md), computed by the dialog paths' SQL (src/analysis/paths/): a flow chart (Sankey) of the top
// moves from one position of the paths to the next; the states ranked by drop-off, by transfers to an agent
// and by catch-all answers after them; the top transitions; the top routes with their share and change
// against the previous period (only where it is covered); per channel; the platform's routes beside ours.
// Small: written in memory with its chart, or (--format html) as one self-contained page.
import { computePaths } from '../../src/analysis/paths/compute-paths.js';
import type { FlowLink, FlowNode, PathsReport, StateFigures } from '../../src/analysis/paths/paths-report.js';
import { type Figure, figureSheet } from '../../src/report/figure-sheet.js';
import type {
  ChartSpec,
  ColumnSpec,
  ReportDefinition,
  SheetSource,
} from '../../src/report/report-definition.js';

/** States, transitions and routes listed in each table. */
export const REPORT_TOP = 20;

const col = (key: string, header: string, format: ColumnSpec['format'], width?: number): ColumnSpec =>
  width === undefined ? { key, header, format } : { key, header, format, width };

const STATE = { ...col('state', 'State', 'text', 28), wrap: true };

/** One ranking of the states: by what happened after them. */
function rankedSheet(
  name: string,
  states: readonly StateFigures[],
  figure: { header: string; count: (s: StateFigures) => number; share: (s: StateFigures) => number | null },
  extra: {
    header: string;
    value: (s: StateFigures) => string | number | null;
    format: ColumnSpec['format'];
    /** The column's width in characters (36). */
    width?: number;
  },
): SheetSource {
  const ranked = [...states]
    .filter((s) => figure.count(s) > 0)
    .sort(
      (a, b) => figure.count(b) - figure.count(a) || b.reached - a.reached || (a.state < b.state ? -1 : 1),
    )
    .slice(0, REPORT_TOP);
  return {
    name,
    columns: [
      col('rank', 'Rank', 'integer'),
      STATE,
      col('reached', 'Sessions that reached it', 'integer'),
      col('count', figure.header, 'integer'),
      col('share', 'Share of those reached', 'percent'),
      { ...col('extra', extra.header, extra.format, extra.width ?? 36), wrap: true },
    ],
    rows: [
      ranked.map((s, n) => [n + 1, s.state, s.reached, figure.count(s), figure.share(s), extra.value(s)]),
    ],
    emptyNote: `No session of the period: ${name.toLowerCase()} is empty`,
  };
}

function nextOf(s: StateFigures): string | null {
  return (
    s.next
      .slice(0, 3)
      .map((n) => `${n.state} ${Math.round((n.share ?? 0) * 100)}%`)
      .join(', ') || null
  );
}

function clustersOf(s: StateFigures): string | null {
  if (s.clusters === null) return 'no unhandled run of this period';
  // the two biggest: a label is up to 80 characters, and a small table must stay on one page
  const named = s.clusters.filter((c) => c.label !== null).slice(0, 2);
  return named.map((c) => `${c.label} (${c.questions})`).join('; ') || null;
}

function rankingSheets(states: readonly StateFigures[]): SheetSource[] {
  return [
    rankedSheet(
      'Drop-off',
      states,
      { header: 'Dropped off there', count: (s) => s.droppedOff, share: (s) => s.dropOffShare },
      { header: 'Of them after a catch-all answer', value: (s) => s.endedAfterCatchAll, format: 'integer' },
    ),
    rankedSheet(
      'Transfers after',
      states,
      { header: 'Sent to an agent right after', count: (s) => s.agentAfter, share: (s) => s.agentAfterShare },
      { header: 'Next states (share of those reached)', value: nextOf, format: 'text' },
    ),
    rankedSheet(
      'Catch-all after',
      states,
      {
        header: 'Catch-all answer right after',
        count: (s) => s.catchAllAfter,
        share: (s) => s.catchAllAfterShare,
      },
      { header: 'Top unhandled topics (questions)', value: clustersOf, format: 'text', width: 56 },
    ),
  ];
}

function transitionsSheet(report: PathsReport): SheetSource {
  return {
    name: 'Transitions',
    columns: [
      STATE,
      { ...col('to', 'Next state', 'text', 28), wrap: true },
      col('sessions', 'Sessions', 'integer'),
      col('share', 'Share of the state’s sessions', 'percent'),
      col('times', 'Times', 'integer'),
    ],
    rows: [report.transitions.map((t) => [t.from, t.to, t.sessions, t.share, t.times])],
    emptyNote: 'No session moved from one state to another in this period',
  };
}

function routesSheet(report: PathsReport): SheetSource {
  return {
    name: 'Routes',
    columns: [
      { ...col('route', 'Route (states in order)', 'text', 50), wrap: true },
      col('sessions', 'Sessions', 'integer'),
      col('share', 'Share of sessions with a path', 'percent'),
      col('previous', 'Previous period', 'integer'),
      col('change', 'Change', 'percent'),
    ],
    rows: [report.routes.map((r) => [r.route, r.sessions, r.share, r.previous.sessions, r.previous.change])],
    emptyNote: 'No session with a path in this period',
  };
}

function channelsSheet(report: PathsReport): SheetSource {
  return {
    name: 'By channel',
    columns: [
      col('channel', 'Channel', 'text', 14),
      STATE,
      col('reached', 'Reached', 'integer'),
      col('dropped', 'Dropped off', 'integer'),
      col('dropShare', 'Drop-off', 'percent'),
      col('agent', 'Agent after', 'integer'),
      col('catchAll', 'Catch-all after', 'integer'),
    ],
    rows: [
      report.byChannel.flatMap((c) =>
        c.states
          .slice(0, 10)
          .map((s) => [
            c.channel,
            s.state,
            s.reached,
            s.droppedOff,
            s.dropOffShare,
            s.agentAfter,
            s.catchAllAfter,
          ]),
      ),
    ],
    emptyNote: 'No channel has a session in this period',
  };
}

function platformSheet(report: PathsReport): SheetSource {
  const p = report.platform;
  return {
    name: 'Platform routes',
    columns: [
      col('channel', 'Channel', 'text', 14),
      { ...col('route', 'Platform route (first five states)', 'text', 44), wrap: true },
      col('result', 'Result', 'text', 12),
      col('platform', 'Platform', 'integer'),
      col('ours', 'Ours', 'integer'),
      col('differing', 'Differing', 'integer'),
      col('same', 'Path is the route', 'integer'),
      col('cut', 'More than 5 states', 'integer'),
      col('agent', 'With an agent', 'integer'),
    ],
    rows: [
      p.rows.map((r) => [
        r.channel,
        r.route,
        r.result,
        r.platform,
        r.ours,
        r.differing,
        r.same,
        r.cut,
        r.agent,
      ]),
    ],
    emptyNote:
      p.dayFrom === null
        ? 'The period holds no whole UTC day to compare with the platform'
        : 'No platform route stored for these days (reporter-etl run state-routes reads them)',
  };
}

function periodSheet(report: PathsReport): SheetSource {
  const t = report.totals;
  const p = report.platform;
  const figures: Figure[] = [
    ['Sessions started in the period', t.sessions, 'integer'],
    ['With a path', t.withPath, 'integer'],
    ['Distinct paths', t.routes, 'integer'],
    ['Ended after a regular answer', t.endedAfterAnswer, 'integer'],
    ['Ended after a catch-all answer', t.endedAfterCatchAll, 'integer'],
    ['Ended with an agent', t.endedWithAgent, 'integer'],
    ['Catch-all class', report.catchAllClass, 'text'],
    ['Previous period', report.previous.covered ? 'covered' : report.previous.note, 'text'],
    ['Unhandled run', report.unhandledRun?.runId ?? 'none for this period', 'text'],
    ['Platform: UTC days compared', p.dayFrom === null ? null : `${p.dayFrom} to ${p.dayTo}`, 'text'],
    ['Platform: routes', p.routes, 'integer'],
    ['Platform: routes that differ', p.routesDiffering, 'integer'],
    ['Platform: sessions', p.platformSessions, 'integer'],
    ['Ours by the platform’s rule', p.ourSessions, 'integer'],
    ['Of ours, the path is the route', p.sameSessions, 'integer'],
    ['Of ours, more than five states', p.cutSessions, 'integer'],
    ['Of ours, with an agent’s messages', p.agentSessions, 'integer'],
    ['Days not read by state-routes', p.daysNotSynced, 'integer'],
  ];
  return figureSheet('Period', figures);
}

/** The flow chart: the paths' first positions as columns, the top moves between them. */
export function pathsChart(nodes: readonly FlowNode[], links: readonly FlowLink[]): ChartSpec[] {
  if (links.length === 0) return [];
  const id = (step: number, state: string) => `${step}|${state}`;
  const drawn = new Set(nodes.map((n) => id(n.step, n.state)));
  const kept = links.filter((l) => drawn.has(id(l.step, l.from)) && drawn.has(id(l.step + 1, l.to)));
  return [
    {
      title: `The paths' first ${Math.max(...nodes.map((n) => n.step))} steps: the top ${kept.length} moves (sessions)`,
      kind: 'sankey',
      categories: [],
      categoryAxis: 'Step',
      valueAxis: { title: 'Sessions' },
      series: [],
      flow: {
        nodes: nodes.map((n) => ({
          id: id(n.step, n.state),
          label: n.state,
          column: n.step - 1,
          value: n.sessions,
        })),
        links: kept.map((l) => ({ from: id(l.step, l.from), to: id(l.step + 1, l.to), value: l.sessions })),
      },
    },
  ];
}

export const pathsReport: ReportDefinition = {
  id: 'paths',
  title: 'Dialog paths',
  description:
    "where the period's sessions went through the bot's states: a flow chart, the states by drop-off, transfers and catch-all answers after them, transitions, routes against the previous period, per channel, the platform's routes",
  mode: 'memory',
  formats: ['xlsx', 'html'],
  async build(context) {
    const report = await computePaths(context.warehouse, {
      projects: context.projects,
      from: context.from,
      to: context.to,
      timeZone: context.tz,
      top: REPORT_TOP,
      catchAllClass: '/CatchAll',
    });
    return {
      sheets: [
        ...rankingSheets(report.states),
        transitionsSheet(report),
        routesSheet(report),
        channelsSheet(report),
        platformSheet(report),
        periodSheet(report),
      ],
      charts: pathsChart(report.flow.nodes, report.flow.links),
      empty: report.totals.withPath === 0,
      noDataReason: 'no session of the period has a path (no message the bot answered)',
    };
  },
};
