// The management commands as a user drives them (in-process, configuration from the environment): labels,
// label-sessions / label-messages, clients and experiments. Output for people and --json for scripts, exit
// codes, and bad input refused before anything is written (the emulator's state version does not move).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from '../../src/cli/command.js';
import { clientsCommand } from '../../src/cli/commands/clients.js';
import { experimentsCommand } from '../../src/cli/commands/experiments.js';
import { labelMessagesCommand } from '../../src/cli/commands/label-messages.js';
import { labelSessionsCommand } from '../../src/cli/commands/label-sessions.js';
import { labelsCommand } from '../../src/cli/commands/labels.js';
import { countJoined } from '../../src/emulator/routes/experiments.js';
import { createManageHarness, type ManageHarness, runCommand } from './manage-harness.js';

let h: ManageHarness;
beforeAll(async () => {
  h = await createManageHarness();
  expect((await h.sync()).status).toBe('success');
});
afterAll(() => h?.close());

const cli = (command: Command, ...argv: string[]) => runCommand(command, argv, h.env);

/** Runs a command that must be refused with exit 2 and change nothing on the platform. */
async function refused(
  command: Command,
  argv: string[],
  message: RegExp,
  options: { noRequest?: boolean } = {},
) {
  const version = h.stateVersion();
  const requests = h.requests();
  const r = await cli(command, ...argv);
  expect(r.code, r.err).toBe(2);
  expect(r.err).toMatch(message);
  expect(h.stateVersion()).toBe(version);
  if (options.noRequest) expect(h.requests()).toBe(requests);
  return r;
}

describe('labels', () => {
  it('lists the catalogues as the platform has them', async () => {
    const r = await cli(labelsCommand, 'list', '--json');
    expect(r.code, r.err).toBe(0);
    const listed = JSON.parse(r.out);
    expect(listed.project).toBe('shop-bot');
    expect(listed.sessionLabels.map((l: any) => l.name)).toEqual(
      [...h.p.state.sessionLabels.values()].sort((a, b) => a.priority - b.priority).map((l) => l.name),
    );
    expect(listed.messageLabels).toHaveLength(h.p.state.messageLabels.size);
    expect(listed.groups.map((g: any) => g.id)).toEqual([...h.p.state.labelGroups.keys()]);
    const text = await cli(labelsCommand, 'list', '--kind', 'message');
    expect(text.out).toMatch(/Message labels of shop-bot \(6\)/);
    expect(text.out).toMatch(/102\s+Качество ответа\s+Неверно\s+2/);
    expect(text.out).not.toMatch(/Session labels/);
  });

  it('creates, renames and deletes session labels, message labels and groups', async () => {
    const session = await cli(
      labelsCommand,
      'create',
      '--kind',
      'session',
      '--name',
      'Перезвонить',
      '--json',
    );
    expect(session.code, session.err).toBe(0);
    const created = JSON.parse(session.out).label;
    expect(h.p.state.sessionLabels.get(created.id)).toEqual({
      id: created.id,
      name: 'Перезвонить',
      priority: 5,
    });

    const message = await cli(
      labelsCommand,
      'create',
      '--kind',
      'message',
      '--group',
      'Тон',
      '--name',
      'Вежливо',
    );
    expect(message.code, message.err).toBe(0);
    expect(message.out).toMatch(/created message label "Вежливо" \(id \d+\) in the new group "Тон"/);
    const group = [...h.p.state.labelGroups.values()].find((g) => g.name === 'Тон')!;
    expect([...h.p.state.messageLabels.values()].find((l) => l.name === 'Вежливо')?.groupId).toBe(group.id);

    expect(
      (await cli(labelsCommand, 'rename', '--kind', 'session', '--name', 'Перезвонить', '--to', 'Позвонить'))
        .code,
    ).toBe(0);
    expect(h.p.state.sessionLabels.get(created.id)).toMatchObject({ name: 'Позвонить', priority: 5 });
    const renamed = await cli(
      labelsCommand,
      'rename',
      '--kind',
      'message',
      '--name',
      'Вежливо',
      '--group',
      'Тон',
      '--to',
      'Учтиво',
    );
    expect(renamed.code, renamed.err).toBe(0);
    expect(
      [...h.p.state.messageLabels.values()].some((l) => l.name === 'Учтиво' && l.groupId === group.id),
    ).toBe(true);
    expect(
      (await cli(labelsCommand, 'rename', '--kind', 'group', '--name', 'Тон', '--to', 'Тональность')).code,
    ).toBe(0);
    expect(h.p.state.labelGroups.get(group.id)).toMatchObject({
      name: 'Тональность',
      priority: group.priority,
    });

    const unconfirmed = await refused(
      labelsCommand,
      ['delete', '--kind', 'group', '--name', 'Тональность'],
      /nothing deleted: .*1 label \("Учтиво"\).*--yes/,
    );
    expect(unconfirmed.out).toBe('');
    expect(
      (await cli(labelsCommand, 'delete', '--kind', 'group', '--name', 'Тональность', '--yes')).code,
    ).toBe(0);
    expect(h.p.state.labelGroups.has(group.id)).toBe(false);
    expect(
      (await cli(labelsCommand, 'delete', '--kind', 'session', '--name', 'Позвонить', '--yes')).code,
    ).toBe(0);
    expect(h.p.state.sessionLabels.has(created.id)).toBe(false);
  });

  it('refuses unknown and taken names, a group alone, and missing options', async () => {
    await refused(
      labelsCommand,
      ['rename', '--kind', 'session', '--name', 'спам', '--to', 'x'],
      /no session label has this name \(did you mean "Спам"\?\); they are: "Успешно"/,
    );
    await refused(labelsCommand, ['create', '--kind', 'session', '--name', 'Спам'], /exists already/);
    await refused(
      labelsCommand,
      ['rename', '--kind', 'message', '--name', 'Верно', '--to', 'Неверно'],
      /has a label of this name already/,
    );
    await refused(
      labelsCommand,
      ['create', '--kind', 'group', '--name', 'G'],
      /creates a group together with its first label/,
      { noRequest: true },
    );
    await refused(labelsCommand, ['create', '--kind', 'message', '--name', 'X'], /--group is required/, {
      noRequest: true,
    });
    await refused(labelsCommand, ['rename', '--kind', 'session', '--name', 'Спам'], /--to is required/, {
      noRequest: true,
    });
    await refused(labelsCommand, ['delete', '--name', 'Спам'], /--kind is required/, { noRequest: true });
    await refused(
      labelsCommand,
      ['list', '--kind', 'sessions'],
      /--kind expects one of session, message, group/,
      { noRequest: true },
    );
    await refused(labelsCommand, ['purge'], /unknown action "purge"/, { noRequest: true });
    await refused(labelsCommand, ['list', '--colour'], /colour/, { noRequest: true });
  });
});

describe('label-sessions and label-messages', () => {
  const QUERY =
    "select session_id from sessions where channel_type = 'vk' and start_time >= (select max(start_time) from sessions) - interval 20 hours";

  it('a dry run shows the counts and a sample; --apply writes; a second run changes nothing', async () => {
    const version = h.stateVersion();
    const dry = await cli(labelSessionsCommand, '--label', 'Спам', '--sql', QUERY);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(
      /label-sessions: dry run, nothing written; project shop-bot, session label "Спам" \(id 4\)/,
    );
    expect(dry.out).toMatch(/sessions selected by the query\s+\d+/);
    expect(dry.out).toMatch(/to write\s+\d+\s+in 1 batch/);
    expect(dry.out).toMatch(/Sample of the sessions to label:\n\s+session_id\s+start_time\s+channel_type/);
    expect(dry.out).toMatch(/Run again with --apply/);
    expect(h.stateVersion()).toBe(version);

    const applied = await cli(labelSessionsCommand, '--label', 'Спам', '--sql', QUERY, '--apply', '--json');
    expect(applied.code, applied.err).toBe(0);
    const summary = JSON.parse(applied.out);
    expect(summary).toMatchObject({ dryRun: false, label: { id: 4, name: 'Спам' } });
    expect(summary.written).toBeGreaterThan(0);
    const picked = await h.withWarehouse((w) => w.query(QUERY));
    for (const row of picked) expect(h.sessionLabelIds(String(row['session_id']))).toContain(4);
    const recorded = await h.withWarehouse((w) =>
      w.query('select sum(written) as n from label_writes where run_id = $1', [summary.runId]),
    );
    expect(recorded[0]!['n']).toBe(summary.written);

    const after = h.stateVersion();
    const again = await cli(labelSessionsCommand, '--label', 'Спам', '--sql', QUERY, '--apply');
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/written\s+0/);
    expect(again.out).toMatch(/Nothing to write/);
    expect(h.stateVersion()).toBe(after);
  });

  it('reads the query from a file and labels messages of a group', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reporter-etl-sql-'));
    const file = join(dir, 'picked.sql');
    writeFileSync(
      file,
      'select question_id, question from messages where nlp_class = \'/CatchAll\'\n  order by "timestamp" desc limit 7;\n',
    );
    const r = await cli(
      labelMessagesCommand,
      '--label',
      'Частично',
      '--group',
      'Качество ответа',
      '--sql-file',
      file,
      '--apply',
      '--json',
    );
    expect(r.code, r.err).toBe(0);
    const summary = JSON.parse(r.out);
    expect(summary).toMatchObject({
      target: 'message',
      selected: 7,
      label: { id: 103, group: 'Качество ответа' },
    });
    const ids = await h.withWarehouse((w) =>
      w.query(
        'select question_id from messages where nlp_class = \'/CatchAll\' order by "timestamp" desc limit 7',
      ),
    );
    for (const row of ids) expect(h.messageLabelIds(String(row['question_id']))).toContain(103);
  });

  it('refuses bad input before any request: the query, then the label', async () => {
    await refused(
      labelSessionsCommand,
      ['--label', 'Спам', '--sql', 'select client_id from sessions', '--apply'],
      /it must return a column named session_id/,
      { noRequest: true },
    );
    await refused(
      labelSessionsCommand,
      ['--label', 'Спам', '--sql', 'drop table sessions', '--apply'],
      /is not a SELECT/,
      { noRequest: true },
    );
    await refused(
      labelMessagesCommand,
      ['--label', 'Верно', '--sql', 'select session_id from messages'],
      /must return a column named question_id/,
      { noRequest: true },
    );
    await refused(labelSessionsCommand, ['--sql', QUERY], /--label is required/, { noRequest: true });
    await refused(labelSessionsCommand, ['--label', 'Спам'], /--sql is required/, { noRequest: true });
    await refused(
      labelSessionsCommand,
      ['--label', 'Спам', '--sql', QUERY, '--batch-size', '0'],
      /--batch-size expects a whole number of at least 1/,
      { noRequest: true },
    );
    await refused(
      labelSessionsCommand,
      ['--label', 'Спам', 'select', 'session_id'],
      /unexpected argument "select": quote the query/,
      { noRequest: true },
    );
    const unknown = await refused(
      labelSessionsCommand,
      ['--label', 'Spam', '--sql', QUERY, '--apply'],
      /--label "Spam": no session label has this name/,
    );
    expect(unknown.out).toBe('');
    await refused(
      labelMessagesCommand,
      ['--label', 'Верно', '--group', 'Тематика', '--sql', 'select question_id from messages'],
      /no message label has this name in group "Тематика"/,
    );
  });

  it('runs --sql in a read-only sandbox: files, URLs, extensions, writes and two statements are refused', async () => {
    const before = await h.withWarehouse((w) =>
      w.query('select (select count(*) from sessions) as s, (select count(*) from label_writes) as l'),
    );
    const outside = /may read only the warehouse's tables: files, URLs and extensions are out of its reach/;
    const refusals: [string, RegExp][] = [
      ["select content as session_id from read_text('/etc/passwd')", outside],
      ["select column0 as session_id from read_csv('/etc/hosts', header = false)", outside],
      ["select * from read_parquet('http://127.0.0.1:1/x.parquet')", outside],
      ['install httpfs', /is not a SELECT \(it is an INSTALL statement\)/],
      ["copy sessions to '/tmp/reporter-etl-copied.csv'", /is not a SELECT \(it is a COPY statement\)/],
      ["attach '/tmp/reporter-etl-attached.duckdb' as x", /is not a SELECT \(it is an ATTACH statement\)/],
      ['delete from sessions', /is not a SELECT \(it is a DELETE statement\)/],
      ['select session_id from sessions; delete from sessions', /holds 2 statements/],
      // DuckDB's binder and catalog refusals, said in our words with DuckDB's first line
      [
        "select read_text('/etc/passwd') as session_id",
        /^[^\n]*--sql: the query cannot run in the sandbox \(it may read only the warehouse's tables; no files, URLs or environment\): Binder Error: [^\n]*read_text/m,
      ],
      [
        "select getenv('HOME') as session_id",
        /--sql: the query cannot run in the sandbox .*: Catalog Error: [^\n]*getenv/,
      ],
    ];
    for (const [sql, message] of refusals) {
      const r = await refused(labelSessionsCommand, ['--label', 'Спам', '--sql', sql, '--apply'], message, {
        noRequest: true,
      });
      expect(r.err).not.toMatch(/root:|serialized to json/);
      expect(r.out).toBe('');
    }
    const after = await h.withWarehouse((w) =>
      w.query('select (select count(*) from sessions) as s, (select count(*) from label_writes) as l'),
    );
    expect(after).toEqual(before);
  });

  it('lists the batches earlier runs left sending as unsettled', async () => {
    await h.withWarehouse((w) =>
      w.query(
        `insert into label_writes (write_id, run_id, project, target, label_id, label_name, query, batch, batches,
           requested, already_labelled, missing, written, object_ids, status, started_at)
         values ('killed-run-3', 'killed-run', 'shop-bot', 'session', 4, 'Спам', 'select 1', 3, 5, 7, 0, 0, 7,
           ['a', 'b', 'c', 'd', 'e', 'f', 'g'], 'sending', timestamptz '2024-05-01 10:00:00+00')`,
      ),
    );
    const r = await cli(
      labelSessionsCommand,
      '--label',
      'Спам',
      '--sql',
      'select session_id from sessions limit 2',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(
      /Unsettled batches of earlier runs \(label_writes status 'sending'\): they may or may not have been applied.*\n\s+run_id killed-run batch 3 of 5: 7 sessions, label "Спам", sent 2024-05-01T10:00:00.000Z/,
    );
  });

  it('teaches with --help', async () => {
    const r = await cli(labelSessionsCommand, '--help');
    expect(r.out).toMatch(/--apply\s+write \(default: dry run/);
    expect(r.out).toMatch(/label_writes/);
    expect((await cli(labelMessagesCommand, '--help')).out).toMatch(/--group NAME/);
  });
});

describe('clients', () => {
  /** A client of the warehouse with its bot. */
  async function someClient(n: number): Promise<{ id: string; bot: string; k: number }> {
    const rows = await h.withWarehouse((w) =>
      w.query('select client_id, bot_id from clients order by client_id limit 1 offset $1', [n]),
    );
    const id = String(rows[0]!['client_id']);
    return { id, bot: String(rows[0]!['bot_id']), k: h.p.clientIndex(id)! };
  }

  it('shows, blocks (once), and unblocks a client', async () => {
    const c = await someClient(3);
    const shown = await cli(clientsCommand, 'show', '--client', c.id, '--json');
    expect(shown.code, shown.err).toBe(0);
    expect(JSON.parse(shown.out).client).toMatchObject({ id: c.id, botId: c.bot, isBlocked: false });

    const blocked = await cli(
      clientsCommand,
      'block',
      '--client',
      c.id,
      '--bot',
      c.bot,
      '--reason',
      'спам',
      '--blocked-by',
      '12',
    );
    expect(blocked.code, blocked.err).toBe(0);
    expect(blocked.out).toMatch(new RegExp(`blocked client ${c.id} of bot ${c.bot}`));
    expect(blocked.out).toMatch(/isBlocked\s+true/);
    expect(h.p.block(c.k)).toMatchObject({ blockReason: 'спам', blockedBy: 12 });

    const version = h.stateVersion();
    const again = await cli(
      clientsCommand,
      'block',
      '--client',
      c.id,
      '--bot',
      c.bot,
      '--reason',
      'спам',
      '--blocked-by',
      '12',
      '--json',
    );
    expect(JSON.parse(again.out)).toMatchObject({ changed: false, client: { isBlocked: true } });
    expect(h.stateVersion()).toBe(version);

    const unblocked = await cli(clientsCommand, 'unblock', '--client', c.id, '--bot', c.bot, '--json');
    expect(JSON.parse(unblocked.out)).toMatchObject({
      changed: true,
      before: { isBlocked: true },
      client: { isBlocked: false },
    });
    expect(h.p.block(c.k)).toBeUndefined();
  });

  it('refuses an unknown client, a client of another bot, and missing options before any write', async () => {
    const c = await someClient(4);
    await refused(
      clientsCommand,
      ['block', '--client', 'no-such-client', '--bot', c.bot],
      /--client no-such-client: no client with this id in project shop-bot/,
    );
    const other = h.p.botIds.find((b) => b !== c.bot)!;
    await refused(
      clientsCommand,
      ['block', '--client', c.id, '--bot', other],
      new RegExp(`belongs to bot ${c.bot}, not ${other}`),
    );
    await refused(clientsCommand, ['block', '--client', c.id], /--bot is required to block/, {
      noRequest: true,
    });
    await refused(clientsCommand, ['unblock', '--bot', c.bot], /--client is required/, { noRequest: true });
    await refused(
      clientsCommand,
      ['unblock', '--client', c.id, '--bot', c.bot, '--reason', 'x'],
      /go with clients block/,
      { noRequest: true },
    );
    await refused(
      clientsCommand,
      ['block', '--client', c.id, '--bot', c.bot, '--blocked-by', 'me'],
      /--blocked-by expects a whole number/,
      { noRequest: true },
    );
    expect(h.p.block(c.k)).toBeUndefined();
  });
});

describe('experiments', () => {
  it('lists experiments with their joined sessions', async () => {
    const r = await cli(experimentsCommand, 'list', '--json');
    expect(r.code, r.err).toBe(0);
    const listed = JSON.parse(r.out).experiments;
    for (const e of listed) {
      const truth = h.p.state.experiments.get(e.key)!;
      expect(e.status).toBe(truth.status);
      expect(e.sessions).toBe(
        [...countJoined(h.p, truth, h.running.emulator.now()).values()].reduce((a, b) => a + b, 0),
      );
    }
    const text = await cli(experimentsCommand, 'list');
    expect(text.out).toMatch(/greeting-test\s+RUNNING\s+short, long\s+\d+/);
  });

  it('creates, counts per branch, stops (once) and deletes', async () => {
    const created = await cli(
      experimentsCommand,
      'create',
      '--key',
      'cli-test',
      '--description',
      'Кнопки',
      '--branch',
      'a=Первая',
      '--branch',
      'b',
    );
    expect(created.code, created.err).toBe(0);
    expect(h.p.state.experiments.get('cli-test')).toMatchObject({
      status: 'CREATED',
      description: 'Кнопки',
      branches: [{ key: 'a', description: 'Первая' }, { key: 'b' }],
    });
    const counts = await cli(experimentsCommand, 'counts', '--key', 'cli-test', '--json');
    expect(JSON.parse(counts.out)).toMatchObject({
      total: 0,
      branches: [
        { key: 'a', count: 0 },
        { key: 'b', count: 0 },
      ],
    });
    const seeded = await cli(experimentsCommand, 'counts', '--key', 'menu-layout');
    expect(seeded.out).toMatch(/buttons\s+\d+\s+\d+\.\d %/);

    expect((await cli(experimentsCommand, 'stop', '--key', 'cli-test')).out).toMatch(
      /stopped experiment cli-test \(was CREATED\)/,
    );
    expect(h.p.state.experiments.get('cli-test')!.status).toBe('STOPPED');
    const version = h.stateVersion();
    expect((await cli(experimentsCommand, 'stop', '--key', 'cli-test')).out).toMatch(
      /unchanged: experiment cli-test is already stopped/,
    );
    expect(h.stateVersion()).toBe(version);

    await refused(
      experimentsCommand,
      ['delete', '--key', 'cli-test'],
      /nothing deleted: .*cli-test \(STOPPED, branches a, b\).*--yes/,
    );
    expect((await cli(experimentsCommand, 'delete', '--key', 'cli-test', '--yes')).code).toBe(0);
    expect(h.p.state.experiments.has('cli-test')).toBe(false);
  });

  it('refuses a taken key, an unknown key, and bad branches', async () => {
    await refused(
      experimentsCommand,
      ['create', '--key', 'greeting-test', '--branch', 'x'],
      /exists already/,
    );
    await refused(
      experimentsCommand,
      ['stop', '--key', 'no-such'],
      /--key no-such: no experiment has this key; they are: greeting-test, menu-layout/,
    );
    await refused(experimentsCommand, ['counts', '--key', 'no-such'], /no experiment has this key/);
    await refused(experimentsCommand, ['create', '--key', 'x'], /at least one --branch/, { noRequest: true });
    await refused(
      experimentsCommand,
      ['create', '--key', 'x', '--branch', 'a', '--branch', 'a=again'],
      /--branch a is given twice/,
      { noRequest: true },
    );
    await refused(experimentsCommand, ['stop'], /--key is required for experiments stop/, {
      noRequest: true,
    });
    await refused(experimentsCommand, ['list', '--branch', 'a'], /go with experiments create/, {
      noRequest: true,
    });
  });
});
