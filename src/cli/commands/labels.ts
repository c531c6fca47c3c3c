// `reporter-etl labels list|create|rename|delete`: the platform's label catalogues (session labels, message
// labels and their groups) from the command line. Names are what users type: an unknown, ambiguous or taken
// name is refused (exit 2) before anything is written; deleting needs --yes.
import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { connectProject, type ProjectConnection } from '../../manage/connect-project.js';
import { pickLabelGroup, pickMessageLabel, pickSessionLabel } from '../../manage/find-label.js';
import { formatTable } from '../../manage/format-table.js';
import {
  createMessageLabel,
  createSessionLabel,
  deleteLabelGroup,
  deleteMessageLabel,
  deleteSessionLabel,
  type LabelGroup,
  type MessageLabel,
  readLabelGroups,
  readMessageLabels,
  readSessionLabels,
  type SessionLabel,
  updateLabelGroup,
  updateMessageLabel,
  updateSessionLabel,
} from '../../platform/reporter/labels.js';
import { plural } from '../../text/plural.js';
import { enumOption, intOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';

const KINDS = ['session', 'message', 'group'] as const;
type Kind = (typeof KINDS)[number];
const ACTIONS = ['list', 'create', 'rename', 'delete'] as const;
type Action = (typeof ACTIONS)[number];

const HELP = `reporter-etl labels <list|create|rename|delete> [--kind session|message|group] [options]

The platform's label catalogues: session labels, message labels, and the groups message labels live in.
Labels are named as the platform shows them; the ids are the platform's.

  labels list [--kind K]
      every session label, message label (with its group) and group, by priority
  labels create --kind session --name NAME [--priority N]
  labels create --kind message --group GROUP --name NAME [--priority N]
      a new label (priority: last by default). A message label needs a group: an unknown group name
      creates the group with the label (the API has no other way to create a group)
  labels rename --kind session|message|group --name OLD --to NEW [--group GROUP]
      renames; priority and group stay. --group picks a message label when several groups have one
      of that name. Labels already on sessions and messages keep it under the new name
  labels delete --kind session|message|group --name NAME [--group GROUP] --yes
      deletes; the platform removes the label from every session or message that carries it, and
      deleting a group deletes all its labels. Without --yes nothing is deleted (exit 2)

Options:
  --kind K           session, message or group (list: all three by default)
  --project NAME     the configured project (needed when REPORTER_CONFIG lists several)
  --json             JSON on stdout, for scripts

Bad input is refused before anything is written (exit 2): an unknown name (with the list of those that
exist), a new name already taken, a missing option. The warehouse's catalogue tables
(session_label_catalogue, message_label_catalogue) show the change after the next sync.

Exit codes: 0 done, 1 the platform refused, 2 bad input or configuration, 75 try again later.

Examples:
  reporter-etl labels list
  reporter-etl labels create --kind session --name 'Вернуться позже'
  reporter-etl labels create --kind message --group 'Тематика' --name 'Скидки'
  reporter-etl labels rename --kind message --group 'Тематика' --name 'Скидки' --to 'Акции'
  reporter-etl labels delete --kind session --name 'Вернуться позже' --yes
`;

interface Values {
  kind?: string;
  name?: string;
  to?: string;
  group?: string;
  priority?: string;
  yes?: boolean;
  project?: string;
  json?: boolean;
}

function required(value: string | undefined, option: string, what: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${option} is required: ${what}`);
  return value;
}

const nextPriority = (items: readonly { priority?: number | null }[]) =>
  Math.max(0, ...items.map((i) => i.priority ?? 0)) + 1;

function groupOf(label: MessageLabel): string {
  return label.group?.name ?? '';
}

async function list(
  c: ProjectConnection,
  kind: Kind | undefined,
  json: boolean,
  io: CommandIo,
): Promise<void> {
  const sessionLabels =
    kind === undefined || kind === 'session' ? await readSessionLabels(c.http) : undefined;
  const messageLabels =
    kind === undefined || kind === 'message' ? await readMessageLabels(c.http) : undefined;
  const groups = kind === undefined || kind === 'group' ? await readLabelGroups(c.http) : undefined;
  if (json) {
    io.out(
      JSON.stringify(
        {
          project: c.project,
          ...(sessionLabels ? { sessionLabels } : {}),
          ...(messageLabels ? { messageLabels } : {}),
          ...(groups ? { groups } : {}),
        },
        null,
        2,
      ),
    );
    return;
  }
  if (sessionLabels) {
    io.out(`Session labels of ${c.project} (${sessionLabels.length})`);
    for (const line of formatTable(sessionLabels, { columns: ['id', 'name', 'priority'] })) io.out(line);
  }
  if (messageLabels) {
    io.out(`Message labels of ${c.project} (${messageLabels.length})`);
    const rows = messageLabels.map((l) => ({
      id: l.id,
      group: groupOf(l),
      name: l.name,
      priority: l.priority,
    }));
    for (const line of formatTable(rows, { columns: ['id', 'group', 'name', 'priority'] })) io.out(line);
  }
  if (groups) {
    io.out(`Message label groups of ${c.project} (${groups.length})`);
    for (const line of formatTable(groups, { columns: ['id', 'name', 'priority'] })) io.out(line);
  }
}

function report(io: CommandIo, json: boolean, result: Record<string, unknown>, text: string): void {
  io.out(json ? JSON.stringify(result, null, 2) : text);
}

async function create(c: ProjectConnection, kind: Kind, v: Values, io: CommandIo): Promise<void> {
  if (kind === 'group')
    throw new UsageError(
      'the API creates a group together with its first label: labels create --kind message --group NEW_GROUP --name FIRST_LABEL',
    );
  const name = required(v.name, 'name', `the new ${kind} label's name`);
  const priority = v.priority === undefined ? undefined : intOption(v.priority, 'priority', 0);
  if (kind === 'session') {
    const labels = await readSessionLabels(c.http);
    if (labels.some((l) => l.name === name))
      throw new UsageError(`--name ${JSON.stringify(name)}: a session label of this name exists already`);
    const created = await createSessionLabel(c.http, { name, priority: priority ?? nextPriority(labels) });
    report(
      io,
      v.json === true,
      { action: 'create', kind, label: created },
      `created session label ${JSON.stringify(created.name)} (id ${created.id}, priority ${created.priority})`,
    );
    return;
  }
  const groupName = required(
    v.group,
    'group',
    'the group of the new message label (an unknown name creates it)',
  );
  const [labels, groups] = [await readMessageLabels(c.http), await readLabelGroups(c.http)];
  const group = groups.find((g) => g.name === groupName);
  if (labels.some((l) => l.name === name && groupOf(l) === groupName))
    throw new UsageError(
      `--name ${JSON.stringify(name)}: group ${JSON.stringify(groupName)} has a label of this name already`,
    );
  const created = await createMessageLabel(c.http, {
    name,
    priority: priority ?? nextPriority(labels.filter((l) => groupOf(l) === groupName)),
    group: group ? { id: group.id, name: group.name } : { name: groupName },
  });
  report(
    io,
    v.json === true,
    { action: 'create', kind, label: created, groupCreated: group === undefined },
    `created message label ${JSON.stringify(created.name)} (id ${created.id}) in ${group ? '' : 'the new '}group ${JSON.stringify(groupName)}`,
  );
}

async function rename(c: ProjectConnection, kind: Kind, v: Values, io: CommandIo): Promise<void> {
  const name = required(v.name, 'name', `the ${kind === 'group' ? 'group' : `${kind} label`} to rename`);
  const to = required(v.to, 'to', 'the new name');
  const json = v.json === true;
  if (kind === 'session') {
    const labels = await readSessionLabels(c.http);
    const label: SessionLabel = pickSessionLabel(labels, name, '--name');
    if (name === to)
      return report(io, json, { action: 'rename', kind, changed: false, label }, 'unchanged: same name');
    if (labels.some((l) => l.name === to))
      throw new UsageError(`--to ${JSON.stringify(to)}: a session label of this name exists already`);
    await updateSessionLabel(c.http, label.id, {
      name: to,
      priority: label.priority ?? nextPriority(labels),
    });
    return report(
      io,
      json,
      { action: 'rename', kind, changed: true, id: label.id, from: name, to },
      `renamed session label ${label.id} ${JSON.stringify(name)} to ${JSON.stringify(to)}`,
    );
  }
  if (kind === 'message') {
    const labels = await readMessageLabels(c.http);
    const label = pickMessageLabel(labels, name, v.group, '--name');
    const groupId = label.group?.id;
    if (groupId == null)
      throw new UsageError(
        `message label ${label.id} has no group id in the platform's answer: cannot rename it`,
      );
    if (name === to)
      return report(io, json, { action: 'rename', kind, changed: false, label }, 'unchanged: same name');
    if (labels.some((l) => l.name === to && l.group?.id === groupId))
      throw new UsageError(
        `--to ${JSON.stringify(to)}: group ${JSON.stringify(groupOf(label))} has a label of this name already`,
      );
    await updateMessageLabel(c.http, label.id, { name: to, groupId, priority: label.priority ?? 1 });
    return report(
      io,
      json,
      { action: 'rename', kind, changed: true, id: label.id, group: groupOf(label), from: name, to },
      `renamed message label ${label.id} ${JSON.stringify(name)} of group ${JSON.stringify(groupOf(label))} to ${JSON.stringify(to)}`,
    );
  }
  const groups = await readLabelGroups(c.http);
  const group: LabelGroup = pickLabelGroup(groups, name, '--name');
  if (name === to)
    return report(io, json, { action: 'rename', kind, changed: false, group }, 'unchanged: same name');
  if (groups.some((g) => g.name === to))
    throw new UsageError(`--to ${JSON.stringify(to)}: a group of this name exists already`);
  await updateLabelGroup(c.http, group.id, { name: to, priority: group.priority ?? nextPriority(groups) });
  report(
    io,
    json,
    { action: 'rename', kind, changed: true, id: group.id, from: name, to },
    `renamed group ${group.id} ${JSON.stringify(name)} to ${JSON.stringify(to)}`,
  );
}

async function remove(c: ProjectConnection, kind: Kind, v: Values, io: CommandIo): Promise<void> {
  const name = required(v.name, 'name', `the ${kind === 'group' ? 'group' : `${kind} label`} to delete`);
  const json = v.json === true;
  let id: number;
  let what: string;
  if (kind === 'session') {
    id = pickSessionLabel(await readSessionLabels(c.http), name, '--name').id;
    what = `session label ${JSON.stringify(name)} (id ${id}): the platform removes it from every session`;
  } else if (kind === 'message') {
    const label = pickMessageLabel(await readMessageLabels(c.http), name, v.group, '--name');
    id = label.id;
    what = `message label ${JSON.stringify(name)} of group ${JSON.stringify(groupOf(label))} (id ${id}): the platform removes it from every message`;
  } else {
    const groups = await readLabelGroups(c.http);
    const group = pickLabelGroup(groups, name, '--name');
    const labels = (await readMessageLabels(c.http)).filter((l) => l.group?.id === group.id);
    id = group.id;
    what = `group ${JSON.stringify(name)} (id ${id}) with its ${plural(labels.length, 'label')}${labels.length > 0 ? ` (${labels.map((l) => JSON.stringify(l.name)).join(', ')})` : ''}: the platform removes them from every message`;
  }
  if (v.yes !== true)
    throw new UsageError(`nothing deleted: this would delete ${what}. Add --yes to delete it`);
  if (kind === 'session') await deleteSessionLabel(c.http, id);
  else if (kind === 'message') await deleteMessageLabel(c.http, id);
  else await deleteLabelGroup(c.http, id);
  report(io, json, { action: 'delete', kind, id, name }, `deleted ${what}`);
}

/** Every option an action needs, checked before anything talks to the platform. */
function checkOptions(action: Action, kind: Kind | undefined, v: Values): void {
  if (v.priority !== undefined) intOption(v.priority, 'priority', 0);
  if (action === 'list') return;
  const noun = kind === 'group' ? 'group' : `${kind} label`;
  if (action === 'create') {
    if (kind === 'group')
      throw new UsageError(
        'the API creates a group together with its first label: labels create --kind message --group NEW_GROUP --name FIRST_LABEL',
      );
    required(v.name, 'name', `the new ${noun}'s name`);
    if (kind === 'message')
      required(v.group, 'group', 'the group of the new message label (an unknown name creates it)');
    return;
  }
  required(v.name, 'name', `the ${noun} to ${action}`);
  if (action === 'rename') required(v.to, 'to', 'the new name');
}

export const labelsCommand: Command = {
  name: 'labels',
  help: HELP,
  async run(argv, io) {
    const [action, ...rest] = argv;
    if (action === undefined || !(ACTIONS as readonly string[]).includes(action))
      throw new UsageError(
        `${action === undefined ? 'an action is required' : `unknown action ${JSON.stringify(action)}`}: labels ${ACTIONS.join('|')} (reporter-etl labels --help)`,
      );
    const { values } = parseCommandArgs(
      rest,
      {
        kind: { type: 'string' },
        name: { type: 'string' },
        to: { type: 'string' },
        group: { type: 'string' },
        priority: { type: 'string' },
        yes: { type: 'boolean' },
        project: { type: 'string' },
        json: { type: 'boolean' },
      },
      { refuse: ' (quote names with spaces)' },
    );
    const kind =
      values.kind === undefined ? undefined : enumOption(values.kind, 'kind', KINDS, 'session' as Kind);
    if (action !== 'list' && kind === undefined)
      throw new UsageError(`--kind is required for labels ${action}: session, message or group`);
    checkOptions(action as Action, kind, values);
    const config = loadConfig();
    const log = createCommandLogger(config);
    const connection = await connectProject(config, { project: values.project, log });
    try {
      switch (action as Action) {
        case 'list':
          await list(connection, kind, values.json === true, io);
          break;
        case 'create':
          await create(connection, kind!, values, io);
          break;
        case 'rename':
          await rename(connection, kind!, values, io);
          break;
        case 'delete':
          await remove(connection, kind!, values, io);
          break;
      }
    } finally {
      await connection.close();
    }
    return EXIT.ok;
  },
};
