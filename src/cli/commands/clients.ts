// `reporter-etl clients show|block|unblock`: look up a client of a bot and block or unblock it. The client is
// looked up on the platform first, so an unknown client, or a client of another bot, is refused (exit 2)
// before any write; blocking a blocked client (same reason) or unblocking an unblocked one sends nothing.
import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { connectProject, type ProjectConnection } from '../../manage/connect-project.js';
import { formatTable } from '../../manage/format-table.js';
import {
  blockClient,
  type ClientExtendedInfo,
  findClient,
  unblockClient,
} from '../../platform/reporter/clients.js';
import { intOption, parseCommandArgs } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';

const ACTIONS = ['show', 'block', 'unblock'] as const;
type Action = (typeof ACTIONS)[number];

const HELP = `reporter-etl clients <show|block|unblock> --client ID [--bot ID] [options]

A client is a user of a bot on a channel (clients.client_id in the warehouse). Blocking a client stops
the bot from answering it.

  clients show --client ID [--bot ID]
      the client as the platform has it now: channel, bot, first and last visit, blocked state
  clients block --client ID --bot ID [--reason TEXT] [--blocked-by USER_ID]
      blocks the client of that bot (blocking again replaces the reason, the author and the date;
      the same reason again changes nothing)
  clients unblock --client ID --bot ID
      unblocks it (nothing is sent when it is not blocked)

The client is looked up on the platform first (clients/filter): an unknown client, or one that belongs
to another bot, is refused (exit 2) before any write. After the write the client is read back and shown.

Options:
  --client ID          the client id (clients.client_id, sessions.client_id)
  --bot ID             the bot the client belongs to (clients.bot_id); required to block or unblock
  --reason TEXT        why (blockReason, shown in the platform)
  --blocked-by ID      the platform user id recorded as the author of the block (default 0)
  --project NAME       the configured project (needed when REPORTER_CONFIG lists several)
  --json               JSON on stdout, for scripts

The warehouse's clients table shows the new state after a sync that reads the client (clients are
refreshed when they are active in a synced window, or by \`reporter-etl sync --full\`).
The API publishes block/unblock for the legacy generation (REPORTER_API=legacy); on v1 they work where
the server answers them.

Exit codes: 0 done, 1 the platform refused, 2 bad input (unknown client, wrong bot, options,
configuration), 75 try again later.

Examples:
  reporter-etl clients show --client 7f3a1c
  reporter-etl clients block --client 7f3a1c --bot shop-bot-main --reason 'spam'
  reporter-etl clients unblock --client 7f3a1c --bot shop-bot-main --json
`;

function clientView(c: ClientExtendedInfo): Record<string, unknown> {
  return {
    id: c.id,
    botId: c.botId ?? null,
    channelType: c.channelType ?? null,
    name: [c.firstName, c.lastName].filter(Boolean).join(' ') || null,
    username: c.username ?? null,
    joinDate: c.joinDate ?? null,
    lastVisitDate: c.lastVisitDate ?? null,
    lastSessionId: c.lastSessionId ?? null,
    isBlocked: c.isBlocked,
    blockReason: c.blockReason ?? null,
    blockedBy: c.blockedBy ?? null,
    blockDate: c.blockDate ?? null,
  };
}

function printClient(io: CommandIo, c: ClientExtendedInfo): void {
  const rows = Object.entries(forJson(c)).map(([field, value]) => ({ field, value }));
  for (const line of formatTable(rows, { columns: ['field', 'value'], maxWidth: 60 }).slice(1)) io.out(line);
}

/** The client `clientId`, of bot `botId` when given; refuses (UsageError) an unknown client or a wrong bot. */
async function lookUp(
  c: ProjectConnection,
  clientId: string,
  botId: string | undefined,
): Promise<ClientExtendedInfo> {
  const client = await findClient(c.http, clientId);
  if (!client)
    throw new UsageError(
      `--client ${clientId}: no client with this id in project ${c.project} (ids are case-sensitive; see clients.client_id in the warehouse)`,
      'manage.unknown_client',
    );
  if (botId !== undefined && client.botId != null && client.botId !== botId)
    throw new UsageError(
      `--client ${clientId} belongs to bot ${client.botId}, not ${botId}: nothing was changed`,
      'manage.wrong_bot',
    );
  return client;
}

function iso(value: number | null | undefined): string | null {
  return value == null ? null : new Date(value).toISOString();
}

function forJson(client: ClientExtendedInfo): Record<string, unknown> {
  const view = clientView(client);
  return {
    ...view,
    joinDate: iso(client.joinDate),
    lastVisitDate: iso(client.lastVisitDate),
    blockDate: iso(client.blockDate),
  };
}

export const clientsCommand: Command = {
  name: 'clients',
  help: HELP,
  async run(argv, io) {
    const [action, ...rest] = argv;
    if (action === undefined || !(ACTIONS as readonly string[]).includes(action))
      throw new UsageError(
        `${action === undefined ? 'an action is required' : `unknown action ${JSON.stringify(action)}`}: clients ${ACTIONS.join('|')} (reporter-etl clients --help)`,
      );
    const { values } = parseCommandArgs(
      rest,
      {
        client: { type: 'string' },
        bot: { type: 'string' },
        reason: { type: 'string' },
        'blocked-by': { type: 'string' },
        project: { type: 'string' },
        json: { type: 'boolean' },
      },
      { refuse: '' },
    );
    const clientId = values.client?.trim();
    if (!clientId) throw new UsageError('--client is required: the client id (clients.client_id)');
    const botId = values.bot?.trim() || undefined;
    if (action !== 'show' && botId === undefined)
      throw new UsageError(`--bot is required to ${action} a client: the bot it belongs to (clients.bot_id)`);
    if (action !== 'block' && (values.reason !== undefined || values['blocked-by'] !== undefined))
      throw new UsageError('--reason and --blocked-by go with clients block');
    const blockedBy = intOption(values['blocked-by'], 'blocked-by', 0);
    const reason = values.reason?.trim() || undefined;

    const config = loadConfig();
    const log = createCommandLogger(config);
    const connection = await connectProject(config, { project: values.project, log });
    try {
      const before = await lookUp(connection, clientId, botId);
      let changed = false;
      let after = before;
      if (action === 'block') {
        const same =
          before.isBlocked && (before.blockReason ?? undefined) === reason && before.blockedBy === blockedBy;
        if (!same) {
          await blockClient(connection.http, { clientId, botId: botId!, blockedBy, blockReason: reason });
          changed = true;
        }
      } else if (action === 'unblock' && before.isBlocked) {
        await unblockClient(connection.http, { clientId, botId: botId! });
        changed = true;
      }
      if (changed) after = await lookUp(connection, clientId, botId);
      if (values.json) {
        io.out(
          JSON.stringify(
            {
              project: connection.project,
              action: action as Action,
              changed,
              ...(action === 'show' ? {} : { before: forJson(before) }),
              client: forJson(after),
            },
            null,
            2,
          ),
        );
      } else {
        const verb = action === 'block' ? 'blocked' : 'unblocked';
        if (action !== 'show')
          io.out(
            changed
              ? `${verb} client ${clientId} of bot ${botId}`
              : `unchanged: client ${clientId} is already ${verb}${action === 'block' ? ' with this reason' : ''}`,
          );
        printClient(io, after);
      }
    } finally {
      await connection.close();
    }
    return EXIT.ok;
  },
};
