// `reporter-etl unhandled`: what people ask that the bot cannot handle. The catch-all messages of a period
// grouped into topics (docs/unhandled.md), stored as one run of the period (unhandled_* tables) and printed:
// a table of the top clusters on a terminal, the whole run as one JSON object with --json; the coverage of the
// top clusters by the knowledge base and the Prompter computed and stored after it (unhandled-coverage.ts).

import {
  computeUnhandled,
  type UnhandledQuery,
  type UnhandledRun,
} from '../../analysis/unhandled/compute-unhandled.js';
import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { formatTable } from '../../manage/format-table.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { normaliseChannel } from '../../platform/reporter/normalise-channel.js';
import { toCleanJson } from '../../text/format-figures.js';
import { assertFromBeforeTo } from '../../time/check-period.js';
import { commandTimeZone, tzHelp } from '../../time/command-time-zone.js';
import { parseZonedTime } from '../../time/parse-zoned-time.js';
import {
  expandPeriod,
  PERIOD_OPTIONS,
  type PeriodValues,
  relativePeriodHelp,
} from '../../time/relative-period.js';
import { intOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireWarehouse } from '../require-warehouse.js';
import { type CoveredCluster, coverTopClusters } from './unhandled-coverage.js';

const DAY = 86_400_000;

const HELP = `reporter-etl unhandled [--from T] [--to T] [--project NAME] [--channel NAME] [--tz ZONE]
                       [--catch-all CLASS] [--min-messages N] [--top N] [--json]

Groups the questions the bot could not handle (messages of the catch-all NLP class, as the unrecognised
share of \`stats\` counts them) of a period into topics: the texts masked (e-mails, phone numbers, numbers),
normalised (case, Unicode, punctuation, word order, stop words, endings) and clustered by similarity, the
same input giving the same clusters (docs/unhandled.md). Each cluster: an id that stays the same for the
same topic in another period, its most central phrasing, messages, distinct clients, share of the period's
unrecognised messages, trend against the previous period of the same length, sessions that went to an agent
after it, channels and up to 5 phrasings. The run is stored (tables unhandled_runs, unhandled_clusters,
unhandled_members), replacing an earlier run of the same period and selection.

Coverage of the top --top clusters (table unhandled_coverage): when REPORTER_KB_KEY is set, each cluster's
label is asked to the knowledge base's retrieval (REPORTER_KB_BASE_URL): its best source and score, and
"answerable" when the score is at least 0.5 and the best chunk holds at least 60 % of the question's terms
(how these were chosen: docs/unhandled.md#coverage); without the key nothing is asked (answerable unknown,
"-" in the table). Also the Prompter's recorded suggestions for the cluster's messages (prompter_requests
with the same text, from \`prompter ask\`) and their most frequent first intent.

Options:
  --from T, --to T     the period: an instant with its offset or a local date or date-time read in --tz;
                       default --to the start of today, --from 7 days before --to
${relativePeriodHelp(23)}
  --project NAME       one projectShortName (default: every project)
  --channel NAME       one channel type, case-insensitive (default: every channel)
${tzHelp('local --from/--to and of today', 21)}
  --catch-all CLASS    the NLP class of unrecognised requests (default /CatchAll)
  --min-messages N     a cluster needs at least N messages in the period (default 1 in 10,000 of the
                       period's unrecognised messages, at least 3); smaller groups stay unclustered
  --top N              clusters shown in the table and whose coverage is computed (20); --json gives
                       every cluster (coverage null beyond the top)
  --json               print the run as one JSON object

Exit codes: 0 ok; 1 failed; 2 usage or configuration (bad --tz, --from not before --to, no warehouse yet);
75 try again later (another process holds the warehouse).

Examples:
  reporter-etl unhandled --from 2026-11-16 --to 2026-11-23
  reporter-etl unhandled --project shop-bot --channel telegram --json
  reporter-etl sql "select label, messages, trend from unhandled_clusters order by messages desc limit 10"
`;

export interface UnhandledDeps {
  env: NodeJS.ProcessEnv;
  now: () => number;
}

export async function runUnhandled(argv: string[], io: CommandIo, deps: UnhandledDeps): Promise<number> {
  const { values } = parseCommandArgs(argv, {
    ...PERIOD_OPTIONS,
    project: { type: 'string' },
    channel: { type: 'string' },
    tz: { type: 'string' },
    'catch-all': { type: 'string' },
    'min-messages': { type: 'string' },
    top: { type: 'string' },
    json: { type: 'boolean' },
  });
  const config = loadConfig(deps.env, { requireToken: false });
  const query = unhandledQuery(values, deps.now(), config.timeZone);
  const top = intOption(values.top, 'top', 20, 1);
  const log = createCommandLogger(config);
  requireWarehouse(config, 'unhandled');
  const run = await withConfiguredWarehouse(config, 'write', log, (warehouse) =>
    computeUnhandled(warehouse, query, new Date(deps.now())),
  );
  const clusters = await coverTopClusters(config, log, run, top, new Date(deps.now()));
  if (values.json) io.out(toCleanJson({ ...run, clusters }));
  else for (const line of renderUnhandled(run, clusters, top)) io.out(line);
  return EXIT.ok;
}

function unhandledQuery(
  values: PeriodValues & { project?: string; channel?: string; tz?: string } & Record<string, unknown>,
  now: number,
  configuredZone: string,
): UnhandledQuery {
  const timeZone = commandTimeZone(values.tz, configuredZone);
  const given = expandPeriod(values, timeZone, now);
  const to = given.to === undefined ? startOfToday(now, timeZone) : parseZonedTime(given.to, 'to', timeZone);
  const from = given.from === undefined ? to - 7 * DAY : parseZonedTime(given.from, 'from', timeZone);
  assertFromBeforeTo(from, to, values);
  if (values.channel !== undefined && values.channel.trim() === '')
    throw new UsageError('--channel expects a channel type such as telegram');
  return {
    ...(values.project === undefined ? {} : { project: values.project }),
    ...(values.channel === undefined ? {} : { channel: normaliseChannel(values.channel.trim()) }),
    catchAllClass: (values['catch-all'] as string | undefined) ?? '/CatchAll',
    from,
    to,
    ...(values['min-messages'] === undefined
      ? {}
      : { minMessages: intOption(values['min-messages'] as string, 'min-messages', 3, 1) }),
  };
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

/** A summary line and the top clusters as a table, with their coverage. */
export function renderUnhandled(
  run: UnhandledRun,
  clusters: readonly CoveredCluster[],
  top: number,
): string[] {
  const percent = (x: number | null) => (x === null ? 'new' : `${x >= 0 ? '+' : ''}${Math.round(x * 100)}%`);
  const share = run.unrecognised === 0 ? 0 : run.clustered / run.unrecognised;
  const lines = [
    `Unhandled questions ${run.from} to ${run.to}: ${run.unrecognised} unrecognised (${run.previousUnrecognised} in the previous period), ${run.clustered} in ${run.clusters.length} clusters (${Math.round(share * 100)}%)`,
  ];
  if (run.clusters.length === 0) return lines;
  const rows = clusters.slice(0, top).map((c) => ({
    rank: c.rank,
    id: c.id,
    messages: c.messages,
    share: `${(c.share * 100).toFixed(1)}%`,
    trend: percent(c.trend),
    clients: c.clients,
    agent: c.agentSessions,
    channels: c.channels.join(','),
    kb: kbCell(c),
    prompter: c.coverage?.prompterSuggestions ?? 0,
    label: c.label,
  }));
  return [
    ...lines,
    ...formatTable(rows, { counts: ['messages', 'clients', 'agent', 'prompter'], maxLineWidth: 160 }),
  ];
}

/** The knowledge base's answer in a cell: `yes 0.82` / `no 0.12` (answerable, score), `-` when not asked. */
function kbCell(c: CoveredCluster): string {
  const cov = c.coverage;
  if (!cov?.kbAsked || cov.score === null) return cov?.kbError ? 'error' : '-';
  return `${cov.answerable ? 'yes' : 'no'} ${cov.score.toFixed(2)}`;
}

export const unhandledCommand: Command = {
  name: 'unhandled',
  help: HELP,
  run: (argv, io) => runUnhandled(argv, io, { env: process.env, now: Date.now }),
};
