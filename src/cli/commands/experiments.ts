// `reporter-etl experiments list|create|stop|delete|counts`: the platform's scenario experiments (A/B tests
// of a bot script). Input is checked against the platform's list before any write: a taken key on create,
// an unknown key on stop/delete/counts are refused (exit 2); stopping a stopped one sends nothing.

import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { connectProject, type ProjectConnection } from '../../manage/connect-project.js';
import { formatTable } from '../../manage/format-table.js';
import {
  countExperimentSessions,
  createExperiment,
  deleteExperiment,
  type Experiment,
  type NewExperiment,
  readExperiments,
  stopExperiment,
} from '../../platform/reporter/experiments.js';
import { formatCount } from '../../text/format-figures.js';
import { parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';

const ACTIONS = ['list', 'create', 'stop', 'delete', 'counts'] as const;
type Action = (typeof ACTIONS)[number];

const HELP = `reporter-etl experiments <list|create|stop|delete|counts> [options]

Scenario experiments split a bot's sessions between branches of its script. The bot joins a session to
an experiment ($analytics.joinExperiment) and the platform answers its branch; the first join moves an
experiment from CREATED to RUNNING. A stopped experiment takes no more sessions.

  experiments list
      every experiment: key, status, branches, joined sessions, description
  experiments create --key KEY --branch KEY[=DESCRIPTION] --branch ... [--description TEXT]
      a new experiment (status CREATED) with at least one branch; branch keys must differ
  experiments stop --key KEY
      stops it: sessions joined so far keep their branch (nothing is sent when already stopped)
  experiments delete --key KEY --yes
      deletes it with its joins; without --yes nothing is deleted (exit 2)
  experiments counts [--key KEY]
      joined sessions per experiment, or per branch of one experiment

Options:
  --key KEY            the experiment key
  --branch KEY[=TEXT]  a branch (repeat for each), with an optional description after '='
  --description TEXT   what the experiment tests
  --yes                confirm a delete
  --project NAME       the configured project (needed when REPORTER_CONFIG lists several; on v1 the
                       experiment operations always send it)
  --json               JSON on stdout, for scripts

Input is checked before anything is written (exit 2): a missing key or branch, duplicate branch keys,
a key already taken (create), an unknown key (stop, delete, counts). The warehouse's experiments table
shows the change after the next sync.

Exit codes: 0 done, 1 the platform refused, 2 bad input or configuration, 75 try again later.

Examples:
  reporter-etl experiments list
  reporter-etl experiments create --key checkout-copy --description 'Short vs long checkout text' \\
      --branch short='One line' --branch long='Three paragraphs'
  reporter-etl experiments counts --key checkout-copy --json
  reporter-etl experiments stop --key checkout-copy
`;

interface Values {
  key?: string;
  branch?: string[];
  description?: string;
  yes?: boolean;
  project?: string;
  json?: boolean;
}

function requireKey(v: Values, action: Action): string {
  const key = v.key?.trim();
  if (!key) throw new UsageError(`--key is required for experiments ${action}: the experiment key`);
  return key;
}

/** `--branch key=description` options as branches; refuses none, empty keys and duplicates. */
function branchesOf(options: readonly string[] | undefined): NewExperiment['branches'] {
  if (!options || options.length === 0)
    throw new UsageError('at least one --branch KEY[=DESCRIPTION] is required (repeat it for each branch)');
  const seen = new Set<string>();
  return options.map((option) => {
    const at = option.indexOf('=');
    const key = (at < 0 ? option : option.slice(0, at)).trim();
    const description = at < 0 ? undefined : option.slice(at + 1).trim();
    if (key === '') throw new UsageError(`--branch ${JSON.stringify(option)}: the branch key is empty`);
    if (seen.has(key)) throw new UsageError(`--branch ${key} is given twice: branch keys must differ`);
    seen.add(key);
    return { key, ...(description ? { description } : {}) };
  });
}

function known(experiments: readonly Experiment[], key: string): Experiment {
  const found = experiments.find((e) => e.key === key);
  if (found) return found;
  throw new UsageError(
    `--key ${key}: no experiment has this key; ${
      experiments.length === 0 ? 'there are none' : `they are: ${experiments.map((e) => e.key).join(', ')}`
    } (reporter-etl experiments list)`,
    'manage.unknown_experiment',
  );
}

function out(io: CommandIo, json: boolean, value: unknown, text: () => string[]): void {
  if (json) io.out(JSON.stringify(value, null, 2));
  else for (const line of text()) io.out(line);
}

async function list(c: ProjectConnection, v: Values, io: CommandIo): Promise<void> {
  const experiments = await readExperiments(c.http);
  const counts = new Map((await countExperimentSessions(c.http)).map((x) => [x.key, x.count]));
  const rows = experiments.map((e) => ({
    key: e.key,
    status: e.status ?? null,
    branches: e.branches.map((b) => b.key),
    sessions: counts.get(e.key) ?? 0,
    description: e.description ?? null,
  }));
  out(
    io,
    v.json === true,
    { project: c.project, experiments: experiments.map((e, n) => ({ ...e, sessions: rows[n]!.sessions })) },
    () => [
      `Experiments of ${c.project} (${rows.length})`,
      ...(rows.length > 0
        ? formatTable(rows, { columns: ['key', 'status', 'branches', 'sessions', 'description'] })
        : []),
    ],
  );
}

async function counts(c: ProjectConnection, v: Values, io: CommandIo): Promise<void> {
  if (v.key === undefined) {
    const all = await countExperimentSessions(c.http);
    out(io, v.json === true, { project: c.project, counts: all }, () => [
      `Joined sessions per experiment of ${c.project}`,
      ...formatTable(all, { columns: ['key', 'count'] }),
    ]);
    return;
  }
  const key = requireKey(v, 'counts');
  known(await readExperiments(c.http), key);
  const branches = await countExperimentSessions(c.http, key);
  const total = branches.reduce((sum, b) => sum + b.count, 0);
  out(io, v.json === true, { project: c.project, experiment: key, total, branches }, () => [
    `Joined sessions of ${key} per branch (${formatCount(total)} in all)`,
    ...formatTable(
      branches.map((b) => ({
        branch: b.key,
        count: b.count,
        share: total > 0 ? `${((b.count / total) * 100).toFixed(1)} %` : '',
      })),
      { columns: ['branch', 'count', 'share'] },
    ),
  ]);
}

export const experimentsCommand: Command = {
  name: 'experiments',
  help: HELP,
  async run(argv, io) {
    const [first, ...rest] = argv;
    if (first === undefined || !(ACTIONS as readonly string[]).includes(first))
      throw new UsageError(
        `${first === undefined ? 'an action is required' : `unknown action ${JSON.stringify(first)}`}: experiments ${ACTIONS.join('|')} (reporter-etl experiments --help)`,
      );
    const action = first as Action;
    const { values } = parseCommandArgs(
      rest,
      {
        key: { type: 'string' },
        branch: { type: 'string', multiple: true },
        description: { type: 'string' },
        yes: { type: 'boolean' },
        project: { type: 'string' },
        json: { type: 'boolean' },
      },
      { refuse: ' (quote texts with spaces)' },
    );
    const v: Values = values;
    const json = v.json === true;
    // everything the command line alone can tell is checked before any request
    let request: NewExperiment | undefined;
    if (action === 'create') {
      request = {
        key: requireKey(v, action),
        branches: branchesOf(v.branch),
        ...(v.description?.trim() ? { description: v.description.trim() } : {}),
      };
    } else if (v.branch !== undefined || v.description !== undefined)
      throw new UsageError('--branch and --description go with experiments create');
    if (action === 'stop' || action === 'delete') requireKey(v, action);

    const config = loadConfig();
    const log = createCommandLogger(config);
    const connection = await connectProject(config, { project: v.project, log });
    try {
      switch (action) {
        case 'list':
          await list(connection, v, io);
          break;
        case 'counts':
          await counts(connection, v, io);
          break;
        case 'create': {
          const existing = await readExperiments(connection.http);
          if (existing.some((e) => e.key === request!.key))
            throw new UsageError(`--key ${request!.key}: an experiment with this key exists already`);
          const created = await createExperiment(connection.http, request!);
          out(io, json, { project: connection.project, action, experiment: created }, () => [
            `created experiment ${created.key} (${created.status ?? 'CREATED'}) with branches ${created.branches.map((b) => b.key).join(', ')}`,
          ]);
          break;
        }
        case 'stop': {
          const key = requireKey(v, action);
          const experiment = known(await readExperiments(connection.http), key);
          const changed = experiment.status !== 'STOPPED';
          if (changed) await stopExperiment(connection.http, key);
          out(
            io,
            json,
            { project: connection.project, action, key, changed, before: experiment.status ?? null },
            () => [
              changed
                ? `stopped experiment ${key} (was ${experiment.status ?? 'unknown'})`
                : `unchanged: experiment ${key} is already stopped`,
            ],
          );
          break;
        }
        case 'delete': {
          const key = requireKey(v, action);
          const experiment = known(await readExperiments(connection.http), key);
          if (v.yes !== true)
            throw new UsageError(
              `nothing deleted: this would delete experiment ${key} (${experiment.status ?? 'unknown'}, branches ${experiment.branches.map((b) => b.key).join(', ')}) with its joins. Add --yes to delete it`,
            );
          await deleteExperiment(connection.http, key);
          out(io, json, { project: connection.project, action, key, deleted: experiment }, () => [
            `deleted experiment ${key}`,
          ]);
          break;
        }
      }
    } finally {
      await connection.close();
    }
    return EXIT.ok;
  },
};
