// `reporter-etl paths`: where conversations go through the bot's states and where they get lost
// (docs/paths.md). The period's paths computed over the warehouse (src/analysis/paths/), printed as tables on
// a terminal (the states ranked by drop-off, transfers or catch-all answers after them; the top transitions
// and routes; the platform's routes beside ours), or the whole figures as one JSON object with --json.
import { computePaths } from '../../analysis/paths/compute-paths.js';
import type { PathsQuery, PathsReport, StateFigures } from '../../analysis/paths/paths-report.js';
import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { formatTable } from '../../manage/format-table.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { formatShare, toCleanJson } from '../../text/format-figures.js';
import { assertFromBeforeTo } from '../../time/check-period.js';
import { commandTimeZone, tzHelp } from '../../time/command-time-zone.js';
import { parseZonedTime } from '../../time/parse-zoned-time.js';
import { expandPeriod, PERIOD_OPTIONS, relativePeriodHelp } from '../../time/relative-period.js';
import { enumOption, intOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireWarehouse } from '../require-warehouse.js';

const DAY = 86_400_000;
const RANKINGS = ['drop-off', 'agent', 'catch-all'] as const;
type Ranking = (typeof RANKINGS)[number];

const HELP = `reporter-etl paths [--from T] [--to T] [--project NAME] [--channel NAME]... [--tz ZONE]
                   [--rank drop-off|agent|catch-all] [--top N] [--catch-all CLASS] [--json]

Where conversations go through the bot's states, and where they get lost. Each session started in the
period gets a path from its messages in the warehouse: the NLP states of the messages the bot answered
(an agent's live chat aside), in order, a repeated state once; it ends at its last state after a regular
answer (the person stopped there), a catch-all answer, or a transfer to an agent (docs/paths.md).

Printed: the totals; every state with the sessions that reached it, dropped off there (their path ended
there, not with an agent), went to an agent right after it and got a catch-all answer right after it,
ranked by --rank; the top transitions (state > next state) and routes (whole paths, with their change
against the previous period of the same length when the synced data covers it); the platform's own routes
(table state_routes, the state-routes job) beside the same routes made from the warehouse, over the whole
UTC days of the period: they agree where the definitions do, and the columns say why they differ
(the platform keeps at most five states and counts the agent's messages as state /).

Options:
  --from T, --to T     the period: an instant with its offset or a local date or date-time read in --tz;
                       sessions that started in [from, to), with all their messages; default --to the
                       start of today, --from 7 days before --to
${relativePeriodHelp(23)}
  --project NAME       one projectShortName (default: every project in the warehouse)
  --channel NAME       only this channel type (repeat it, or separate with commas); case-insensitive
${tzHelp('local --from/--to and of today', 21)}
  --rank BY            drop-off (default), agent (transfers after) or catch-all (catch-all answers after)
  --top N              states, transitions and routes listed (10); --json lists every state
  --catch-all CLASS    the NLP class of unrecognised requests (default /CatchAll)
  --json               print every figure as one JSON object (its shape: docs/paths.md)

Exit codes: 0 ok; 1 failed; 2 usage or configuration (bad --tz, --from not before --to, unknown
--project or --channel, no warehouse yet); 75 try again later (another process holds the warehouse).

Examples:
  reporter-etl paths --last 7d
  reporter-etl paths --month last --channel telegram --rank agent
  reporter-etl paths --from 2026-11-01 --to 2026-12-01 --tz Europe/Moscow --json
  reporter-etl report paths --month last --format html
`;

export interface PathsDeps {
  env: Record<string, string | undefined>;
  now: () => number;
  log?: Logger;
}

/** The start of the local day of `now` in the zone. */
function startOfToday(now: number, timeZone: string): number {
  const day = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return parseZonedTime(day.format(now), 'to', timeZone);
}

/** The query of the command line: the period (default the 7 days before today), the selection, the lists. */
export function pathsQuery(
  values: Record<string, unknown>,
  now: number,
  configuredZone: string,
  top: number,
): PathsQuery {
  const timeZone = commandTimeZone(values['tz'] as string | undefined, configuredZone);
  const given = expandPeriod(values, timeZone, now);
  const to = given.to === undefined ? startOfToday(now, timeZone) : parseZonedTime(given.to, 'to', timeZone);
  const from = given.from === undefined ? to - 7 * DAY : parseZonedTime(given.from, 'from', timeZone);
  assertFromBeforeTo(from, to, values);
  const raw = values['channel'] as string[] | undefined;
  const channels = raw
    ?.flatMap((c) => c.split(','))
    .map((c) => c.trim())
    .filter((c) => c !== '');
  if (raw !== undefined && channels?.length === 0)
    throw new UsageError('--channel expects a channel type such as telegram');
  const project = values['project'] as string | undefined;
  return {
    projects: project === undefined ? undefined : [project],
    channels,
    from,
    to,
    timeZone,
    top,
    catchAllClass: (values['catch-all'] as string | undefined) ?? '/CatchAll',
  };
}

export async function runPaths(argv: string[], io: CommandIo, deps: PathsDeps): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    ...PERIOD_OPTIONS,
    project: { type: 'string' },
    channel: { type: 'string', multiple: true },
    tz: { type: 'string' },
    rank: { type: 'string' },
    top: { type: 'string' },
    'catch-all': { type: 'string' },
    json: { type: 'boolean' },
  });
  const config = loadConfig(deps.env, { requireToken: false });
  const top = intOption(values.top, 'top', 10, 1);
  const rank = enumOption<Ranking>(values.rank, 'rank', RANKINGS, 'drop-off');
  const query = pathsQuery(values, deps.now(), config.timeZone, values.json ? 1_000 : top);
  const log = deps.log ?? createCommandLogger(config);
  requireWarehouse(config, 'paths');
  const report = await withConfiguredWarehouse(config, 'read', log, (warehouse) =>
    warehouse.hold(() => computePaths(warehouse, query, { now: deps.now })),
  );
  if (values.json) io.out(toCleanJson(report));
  else for (const line of renderPathsText(report, rank, top)) io.out(line);
  return EXIT.ok;
}

const RANK_KEY: Record<Ranking, (s: StateFigures) => number> = {
  'drop-off': (s) => s.droppedOff,
  agent: (s) => s.agentAfter,
  'catch-all': (s) => s.catchAllAfter,
};

/** The states ranked by `rank` (then by the sessions that reached them, then by name). */
export function rankStates(states: readonly StateFigures[], rank: Ranking): StateFigures[] {
  const key = RANK_KEY[rank];
  return [...states].sort((a, b) => key(b) - key(a) || b.reached - a.reached || (a.state < b.state ? -1 : 1));
}

/** The tables people read: totals, states, transitions, routes, the platform's routes. */
export function renderPathsText(report: PathsReport, rank: Ranking, top: number): string[] {
  const t = report.totals;
  const lines = [
    `Dialog paths of the sessions started ${report.window.from} to ${report.window.to} (${report.timeZone})`,
    `${t.sessions.toLocaleString('en-US')} sessions, ${t.withPath.toLocaleString('en-US')} with a path (${t.routes.toLocaleString('en-US')} distinct); ended after an answer ${t.endedAfterAnswer.toLocaleString('en-US')}, after a catch-all answer ${t.endedAfterCatchAll.toLocaleString('en-US')}, with an agent ${t.endedWithAgent.toLocaleString('en-US')}`,
  ];
  if (t.withPath === 0) return [...lines, 'No session of the selection has a path in this period.'];
  const states = rankStates(report.states, rank).slice(0, top);
  lines.push(
    '',
    `States by ${rank === 'drop-off' ? 'drop-off' : rank === 'agent' ? 'transfers to an agent after them' : 'catch-all answers after them'}`,
  );
  lines.push(
    ...formatTable(
      states.map((s) => ({
        state: s.state,
        reached: s.reached,
        dropped: s.droppedOff,
        'dropped %': formatShare(s.dropOffShare),
        agent: s.agentAfter,
        'agent %': formatShare(s.agentAfterShare),
        'catch-all': s.catchAllAfter,
        'catch-all %': formatShare(s.catchAllAfterShare),
        'next (most sessions)': s.next[0] ? `${s.next[0].state} ${formatShare(s.next[0].share)}` : '',
      })),
      { counts: ['reached', 'dropped', 'agent', 'catch-all'], maxLineWidth: 120 },
    ),
  );
  lines.push('', 'Top transitions');
  lines.push(
    ...formatTable(
      report.transitions.slice(0, top).map((x) => ({
        from: x.from,
        to: x.to,
        sessions: x.sessions,
        'share of from': formatShare(x.share),
        times: x.times,
      })),
      { counts: ['sessions', 'times'] },
    ),
  );
  lines.push('', routesTitle(report));
  lines.push(
    ...formatTable(
      report.routes.slice(0, top).map((r) => ({
        sessions: r.sessions,
        share: formatShare(r.share),
        previous: r.previous.sessions,
        change:
          r.previous.change === null ? (report.previous.covered ? 'new' : '') : signed(r.previous.change),
        route: r.route,
      })),
      { counts: ['sessions', 'previous'], maxLineWidth: 120 },
    ),
  );
  return [...lines, '', ...platformLines(report)];
}

function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${formatShare(x)}`;
}

function routesTitle(report: PathsReport): string {
  const p = report.previous;
  return p.covered
    ? `Top routes, against the previous period (${p.from} to ${p.to})`
    : `Top routes (change against the previous period ${p.note ?? 'n/a'})`;
}

/** The reconciliation with the platform's routes in a few lines. */
function platformLines(report: PathsReport): string[] {
  const p = report.platform;
  if (p.dayFrom === null) return ["The platform's routes: the period holds no whole UTC day to compare."];
  if (p.daysCompared === 0)
    return [
      `The platform's routes: none stored for ${p.dayFrom} to ${p.dayTo} (run reporter-etl run state-routes).`,
    ];
  const lines = [
    `The platform's routes, UTC days ${p.dayFrom} to ${p.dayTo} (${p.daysCompared} project-days compared, ${p.daysNotSynced} not read by state-routes): ${p.routes.toLocaleString('en-US')} routes, ${p.routesDiffering.toLocaleString('en-US')} differ; sessions: platform ${p.platformSessions.toLocaleString('en-US')}, ours ${p.ourSessions.toLocaleString('en-US')}`,
  ];
  lines.push(
    `Of our ${p.ourSessions.toLocaleString('en-US')}, ${p.sameSessions.toLocaleString('en-US')} have a path equal to the platform's route; the others differ by definition: ${p.cutSessions.toLocaleString('en-US')} have more than five states (the platform keeps five), ${p.agentSessions.toLocaleString('en-US')} hold an agent's messages (state / in the platform's route).`,
  );
  const differing = p.rows.filter((r) => r.differing > 0).slice(0, 5);
  if (differing.length > 0)
    lines.push(
      ...formatTable(
        differing.map((r) => ({
          channel: r.channel,
          platform: r.platform,
          ours: r.ours,
          cut: r.cut,
          agent: r.agent,
          route: r.route,
        })),
        { counts: ['platform', 'ours', 'cut', 'agent'], maxLineWidth: 120 },
      ),
    );
  return lines;
}

export const pathsCommand: Command = {
  name: 'paths',
  help: HELP,
  run: (argv, io) => runPaths(argv, io, { env: process.env, now: Date.now }),
};
