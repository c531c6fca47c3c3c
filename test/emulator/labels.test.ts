// Label and comment operations of the emulator: the catalogues (message labels with groups, session labels),
// labels and comments put on records one by one, by list and in bulk, and their effect on later reads
// (sessions/filter with labels, messages/by-session), checked against the emulator's ground truth.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_READONLY_TOKEN } from '../../src/emulator/emulator.js';
import type { ProjectData } from '../../src/emulator/project-data.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { makeCaller, pageAll, TEST_NOW } from '../helpers/emulator-client.js';
import { loadSpec } from '../helpers/openapi-validator.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
let p: ProjectData;
const spec = loadSpec({ dateTime: 'strict' });

beforeAll(async () => {
  running = await startEmulator({ port: 0, sessions: 300, days: 2, now: TEST_NOW });
  call = makeCaller(running.url);
  p = running.emulator.project('shop-bot');
});
afterAll(() => running.close());

const truth = () => groundTruth(p, { now: running.emulator.now(), ids: false });
const sessionIdFilter = (id: string) => ({
  filters: [
    { key: 'SESSION_ID', type: 'TEXT', comparisonType: 'EQUALS', values: [id], isCaseSensitive: false },
  ],
});

async function sessionWithLabels(id: string): Promise<any> {
  const r = await call('sessions/filter?needToReturnSessionLabels=true', { body: sessionIdFilter(id) });
  expect(r.status).toBe(200);
  expect(r.body.sessions).toHaveLength(1);
  return r.body.sessions[0];
}

async function messagesOf(sessionId: string): Promise<any[]> {
  const r = await call(`messages/by-session?sessionId=${sessionId}&size=100`);
  expect(r.status).toBe(200);
  return r.body.messages;
}

/** A few sessions with at least `min` messages, newest first. */
async function someSessions(min: number, count: number): Promise<any[]> {
  const r = await call('sessions/filter?size=100', {
    body: { filters: [{ key: 'MESSAGE_COUNT', type: 'NUMERIC_RANGE', from: min }] },
  });
  expect(r.body.sessions.length).toBeGreaterThanOrEqual(count);
  return r.body.sessions.slice(0, count);
}

function expectBadParameter(r: { status: number; body: any }, status: number, parameter: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.error).toMatch(/^reporter\./);
  expect(r.body.args?.parameter).toBe(parameter);
  expect(r.body.message).toContain(parameter);
}

describe('message label catalogue', () => {
  it('lists the seeded labels with their groups, as the vendor schema has them', async () => {
    const r = await call('message/labels');
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(p.state.messageLabels.size);
    for (const label of r.body) expect(spec.validateNamed(label, 'MessageLabelDto')).toEqual([]);
    const groups = await call('message/labels/groups', { generation: 'legacy' });
    expect(groups.body.map((g: any) => g.name)).toEqual(['Качество ответа', 'Тематика']);
    for (const g of groups.body) expect(spec.validateNamed(g, 'MessageLabelGroupDto')).toEqual([]);
  });

  it('creates, reads, updates and re-prioritises labels and groups', async () => {
    const created = await call('message/labels', {
      body: { name: 'Срочно 🔥', priority: 3, group: { name: 'Приоритет', priority: 9 } },
    });
    expect(created.status).toBe(200);
    expect(spec.validateNamed(created.body, 'MessageLabelDto')).toEqual([]);
    expect(created.body).toMatchObject({
      name: 'Срочно 🔥',
      priority: 3,
      group: { name: 'Приоритет', priority: 9 },
    });
    const { id, group } = created.body;

    expectBadParameter(
      await call('message/labels', {
        body: { name: 'Срочно 🔥', priority: 1, group: { id: group.id, name: 'x' } },
      }),
      400,
      'name',
    );
    expectBadParameter(
      await call('message/labels', { body: { name: 'A', priority: 1, group: { id: 999_999, name: 'x' } } }),
      400,
      'group.id',
    );
    expectBadParameter(
      await call('message/labels', { body: { name: 'A', priority: '1', group: { name: 'x' } } }),
      400,
      'priority',
    );
    expectBadParameter(await call('message/labels', { body: { name: 'A', priority: 1 } }), 400, 'group');

    const put = await call(`message/labels/${id}`, {
      method: 'PUT',
      body: { name: 'Очень срочно', groupId: 11, priority: 7 },
    });
    expect(put.status).toBe(200);
    const got = await call(`message/labels/${id}`, { generation: 'legacy' });
    expect(got.body).toMatchObject({
      id,
      name: 'Очень срочно',
      priority: 7,
      group: { id: 11, name: 'Качество ответа' },
    });
    expectBadParameter(
      await call(`message/labels/${id}`, { method: 'PUT', body: { name: 'x', groupId: 5, priority: 1 } }),
      400,
      'groupId',
    );
    expectBadParameter(await call('message/labels/424242'), 404, 'id');
    expectBadParameter(await call('message/labels/abc'), 400, 'id');

    expect(
      (await call('message/labels/change-priority', { method: 'PUT', body: [{ id, newPriority: 0 }] }))
        .status,
    ).toBe(200);
    expect((await call(`message/labels/${id}`)).body.priority).toBe(0);
    expectBadParameter(
      await call('message/labels/change-priority', { method: 'PUT', body: [{ id: 1, newPriority: 0 }] }),
      400,
      'body[0].id',
    );

    expect(
      (
        await call(`message/labels/groups/${group.id}`, {
          method: 'PUT',
          body: { name: 'Приоритет 2', priority: 0 },
        })
      ).status,
    ).toBe(200);
    expect((await call(`message/labels/groups/${group.id}`)).body).toEqual({
      id: group.id,
      name: 'Приоритет 2',
      priority: 0,
    });
    expect((await call('message/labels/groups')).body[0].id).toBe(group.id);
    expect(
      (
        await call('message/labels/groups/change-priority', {
          method: 'PUT',
          body: [{ id: group.id, newPriority: 50 }],
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('message/labels/groups', { method: 'PUT', body: [{ id: 12, name: 'Темы' }] })).status,
    ).toBe(200);
    const groups = (await call('message/labels/groups')).body;
    expect(groups.map((g: any) => g.name)).toEqual(['Качество ответа', 'Темы', 'Приоритет 2']);
    expectBadParameter(
      await call('message/labels/groups', { method: 'PUT', body: [{ id: 1 }] }),
      400,
      'body[0].id',
    );
    expectBadParameter(await call('message/labels/groups/77777'), 404, 'id');
  });

  it('creates and updates labels by list, all or nothing', async () => {
    const before = (await call('message/labels')).body.length;
    const bad = await call('message/labels/by-list', {
      method: 'POST',
      body: [
        { name: 'Новый', priority: 1, group: { name: 'Списком' } },
        { name: 'Новый', priority: 2, group: { name: 'Списком' } },
      ],
    });
    expectBadParameter(bad, 400, 'body[1].name');
    expect((await call('message/labels')).body.length).toBe(before);
    const ok = await call('message/labels/by-list', {
      method: 'POST',
      body: [
        { name: 'Первый', priority: 1, group: { name: 'Списком' } },
        { name: 'Второй', priority: 2, group: { name: 'Списком' } },
      ],
    });
    expect(ok.status).toBe(200);
    const all = (await call('message/labels')).body;
    const listed = all.filter((l: any) => l.group.name === 'Списком');
    expect(listed.map((l: any) => l.name)).toEqual(['Первый', 'Второй']);
    expect(new Set(listed.map((l: any) => l.group.id)).size).toBe(1);

    const update = await call('message/labels/by-list', {
      method: 'PUT',
      body: [{ id: listed[1].id, name: 'Второй!', priority: 0, groupName: 'Списком 2' }],
    });
    expect(update.status).toBe(200);
    expect((await call(`message/labels/${listed[1].id}`)).body).toMatchObject({
      name: 'Второй!',
      priority: 0,
      group: { name: 'Списком 2' },
    });
    expectBadParameter(
      await call('message/labels/by-list', { method: 'PUT', body: [{ id: listed[0].id, groupId: 3 }] }),
      400,
      'body[0].groupId',
    );
    expectBadParameter(await call('message/labels/by-list', { method: 'PUT', body: { id: 1 } }), 400, 'body');
  });

  it('refuses writes to a read-only token', async () => {
    const r = await call('message/labels', {
      token: DEFAULT_READONLY_TOKEN,
      body: { name: 'x', priority: 1, group: { name: 'y' } },
    });
    expect(r.status).toBe(403);
    expect((await call('message/labels', { token: DEFAULT_READONLY_TOKEN })).status).toBe(200);
    for (const [path, method] of [
      ['message/labels/101', 'DELETE'],
      ['logs/labels/sessions/1', 'DELETE'],
      ['comments/x', 'DELETE'],
      ['session-labels/sessions/bulk-labeling', 'POST'],
    ] as const) {
      expect((await call(path, { method, token: DEFAULT_READONLY_TOKEN, body: {} })).status, path).toBe(403);
    }
  });
});

describe('labels and comments on messages', () => {
  it('adds, removes and replaces the labels of one message, visible in messages/by-session', async () => {
    const [session] = await someSessions(3, 1);
    const messages = await messagesOf(session.sessionId);
    const target = messages[1];
    const seeded = target.labels.map((l: any) => l.id);
    const path = `message/labels/logs?questionId=${target.questionId}`;

    expect((await call(path, { body: { labelId: 111 } })).status).toBe(200);
    let after = (await messagesOf(session.sessionId)).find((m) => m.questionId === target.questionId);
    expect(after.labels.map((l: any) => l.id).sort()).toEqual([...new Set([...seeded, 111])].sort());
    expect(after.labels.find((l: any) => l.id === 111)).toMatchObject({
      name: 'Доставка',
      group: { id: 12 },
    });

    // legacy generation, same state
    expect(
      (await call(path, { method: 'DELETE', body: { labelId: 111 }, generation: 'legacy' })).status,
    ).toBe(200);
    after = (await messagesOf(session.sessionId)).find((m) => m.questionId === target.questionId);
    expect(after.labels.map((l: any) => l.id).sort()).toEqual(seeded.sort());

    const set = await call(`message/labels/logs/set-by-list?questionId=${target.questionId}`, {
      body: [{ labelId: 101 }, { labelId: 103 }],
    });
    expect(set.status).toBe(200);
    after = (await messagesOf(session.sessionId)).find((m) => m.questionId === target.questionId);
    expect(after.labels.map((l: any) => l.id).sort()).toEqual([101, 103]);
    // the other messages kept their labels
    const others = (await messagesOf(session.sessionId)).filter((m) => m.questionId !== target.questionId);
    expect(others.map((m) => m.labels)).toEqual(
      messages.filter((m) => m.questionId !== target.questionId).map((m) => m.labels),
    );
  });

  it('names the parameter at fault', async () => {
    const [session] = await someSessions(1, 1);
    const [message] = await messagesOf(session.sessionId);
    const q = message.questionId;
    expectBadParameter(
      await call(`message/labels/logs?questionId=${q}`, { body: { labelId: 1 } }),
      400,
      'labelId',
    );
    expectBadParameter(
      await call(`message/labels/logs?questionId=${q}`, { body: { labelId: '101' } }),
      400,
      'labelId',
    );
    expectBadParameter(await call(`message/labels/logs?questionId=${q}`, { body: [101] }), 400, 'body');
    expectBadParameter(await call('message/labels/logs', { body: { labelId: 101 } }), 400, 'questionId');
    const forged = `${q.slice(0, -1)}${q.endsWith('0') ? '1' : '0'}`;
    expectBadParameter(
      await call(`message/labels/logs?questionId=${forged}`, { body: { labelId: 101 } }),
      404,
      'questionId',
    );
    expectBadParameter(
      await call(`message/labels/logs/set-by-list?questionId=${q}`, {
        body: [{ labelId: 101 }, { labelId: 7 }],
      }),
      400,
      'body[1].labelId',
    );
  });

  it('comments a message and deletes the comment', async () => {
    const [session] = await someSessions(2, 1);
    const [, message] = await messagesOf(session.sessionId);
    const q = message.questionId;
    expect((await call(`comments/${q}`, { body: { comment: 'Проверено ✅' } })).status).toBe(200);
    expect((await messagesOf(session.sessionId)).find((m) => m.questionId === q).comment).toBe(
      'Проверено ✅',
    );
    expect(
      (await call(`comments/${q}`, { body: { questionId: q, comment: 'Ещё раз' }, generation: 'legacy' }))
        .status,
    ).toBe(200);
    expect((await messagesOf(session.sessionId)).find((m) => m.questionId === q).comment).toBe('Ещё раз');
    expect((await call(`comments/${q}`, { method: 'DELETE' })).status).toBe(200);
    expect((await messagesOf(session.sessionId)).find((m) => m.questionId === q).comment).toBeUndefined();

    expectBadParameter(await call(`comments/${q}`, { body: { comment: 5 } }), 400, 'comment');
    expectBadParameter(await call(`comments/${q}`, { body: {} }), 400, 'comment');
    expectBadParameter(
      await call(`comments/${q}`, { body: { questionId: 'other', comment: 'x' } }),
      400,
      'questionId',
    );
    expectBadParameter(await call('comments/not-a-question', { body: { comment: 'x' } }), 404, 'questionId');
  });

  it('bulk-labels messages by ids and by filters, and the counts match the ground truth', async () => {
    const created = await call('message/labels', {
      body: { name: 'Массово', priority: 1, group: { id: 11, name: '' } },
    });
    const id = created.body.id;
    const sessions = await someSessions(2, 2);
    const ids = [...(await messagesOf(sessions[0].sessionId)), ...(await messagesOf(sessions[1].sessionId))]
      .slice(0, 3)
      .map((m) => m.questionId);
    const byIds = await call('message/labels/logs/bulk-labeling', {
      body: { comparisonType: 'CONTAINS', labels: [id], objectIds: ids },
    });
    expect(byIds.status).toBe(200);
    expect(truth().messageLabels['Массово']).toBe(3);

    // every message classified as /Refund gets the label: the truth counts them independently
    const byFilter = await call('message/labels/logs/bulk-labeling', {
      body: {
        comparisonType: 'CONTAINS',
        labels: [id],
        filters: {
          filters: [{ key: 'NLP_CLASS', type: 'CHECKBOX', comparisonType: 'CONTAINS', options: ['/Refund'] }],
        },
      },
    });
    expect(byFilter.status).toBe(200);
    const refunds = truth().nlpClasses['/Refund']!;
    expect(refunds).toBeGreaterThan(0);
    const t = truth();
    const alreadyRefund = ids.filter((q) => {
      const at = p.messageIndex(q)!;
      return p.messageFacts(at.i, at.k).nlpClass === '/Refund';
    }).length;
    expect(t.messageLabels['Массово']).toBe(refunds + 3 - alreadyRefund);

    // removing it from the same selection leaves the three picked by id (unless they were refunds)
    await call('message/labels/logs/bulk-labeling', {
      body: {
        comparisonType: 'NOT_CONTAINS',
        labels: [id],
        filters: { filters: [{ key: 'NLP_CLASS', type: 'CHECKBOX', options: ['/Refund'] }] },
      },
    });
    expect(truth().messageLabels['Массово'] ?? 0).toBe(3 - alreadyRefund);

    expectBadParameter(
      await call('message/labels/logs/bulk-labeling', { body: { labels: [id], objectIds: ids } }),
      400,
      'comparisonType',
    );
    expectBadParameter(
      await call('message/labels/logs/bulk-labeling', { body: { comparisonType: 'CONTAINS', labels: [id] } }),
      400,
      'objectIds',
    );
    expectBadParameter(
      await call('message/labels/logs/bulk-labeling', {
        body: { comparisonType: 'CONTAINS', labels: [id, 3], objectIds: ids },
      }),
      400,
      'labels[1]',
    );
    expectBadParameter(
      await call('message/labels/logs/bulk-labeling', {
        body: { comparisonType: 'CONTAINS', labels: [id], objectIds: [ids[0], 'nope'] },
      }),
      400,
      'objectIds[1]',
    );
    expectBadParameter(
      await call('message/labels/logs/bulk-labeling', {
        body: {
          comparisonType: 'CONTAINS',
          labels: [id],
          filters: { filters: [{ key: 'NOPE', type: 'TEXT' }] },
        },
      }),
      400,
      'filters.filters[0].key',
    );
  });

  it('deleting a label or a group removes it from every message', async () => {
    const group = await call('message/labels', {
      body: { name: 'Уйдёт', priority: 1, group: { name: 'Временная' } },
    });
    const keep = await call('message/labels', {
      body: { name: 'Останется', priority: 1, group: { id: 11, name: '' } },
    });
    const [session] = await someSessions(2, 1);
    const [m] = await messagesOf(session.sessionId);
    const path = `message/labels/logs/set-by-list?questionId=${m.questionId}`;
    await call(path, { body: [{ labelId: group.body.id }, { labelId: keep.body.id }] });
    expect(truth().messageLabels['Уйдёт']).toBe(1);

    expect((await call(`message/labels/groups/${group.body.group.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    expect(truth().messageLabels['Уйдёт']).toBeUndefined();
    const labels = (await messagesOf(session.sessionId))[0].labels.map((l: any) => l.id);
    expect(labels).toEqual([keep.body.id]);
    expect((await call(`message/labels/${group.body.id}`)).status).toBe(404);

    expect((await call(`message/labels/${keep.body.id}`, { method: 'DELETE' })).status).toBe(200);
    expect((await messagesOf(session.sessionId))[0].labels).toEqual([]);
    expect(truth().messageLabels['Останется']).toBeUndefined();
    expectBadParameter(await call(`message/labels/${keep.body.id}`, { method: 'DELETE' }), 404, 'id');
  });
});

describe('session labels', () => {
  it('keeps a catalogue of session labels', async () => {
    const list = await call('logs/labels/sessions');
    expect(list.body.map((l: any) => l.name)).toEqual(['Успешно', 'Нужна доработка', 'Жалоба 😡', 'Спам']);
    for (const l of list.body) expect(spec.validateNamed(l, 'SessionLabelDto')).toEqual([]);

    const created = await call('logs/labels/sessions', {
      body: { name: 'VIP', priority: 0 },
      generation: 'legacy',
    });
    expect(created.status).toBe(200);
    expect(spec.validateNamed(created.body, 'SessionLabelDto')).toEqual([]);
    const id = created.body.id;
    expect((await call('logs/labels/sessions')).body[0]).toEqual({ id, name: 'VIP', priority: 0 });
    expectBadParameter(
      await call('logs/labels/sessions', { body: { name: 'VIP', priority: 1 } }),
      400,
      'name',
    );
    expectBadParameter(await call('logs/labels/sessions', { body: { name: 'X' } }), 400, 'priority');

    expect(
      (
        await call(`logs/labels/sessions/${id}`, {
          method: 'PUT',
          body: { name: 'VIP клиент', priority: 10 },
        })
      ).status,
    ).toBe(200);
    expect((await call(`logs/labels/sessions/${id}`)).body).toEqual({ id, name: 'VIP клиент', priority: 10 });
    expect(
      (await call('logs/labels/sessions/change-priority', { method: 'PUT', body: [{ id, newPriority: 2 }] }))
        .status,
    ).toBe(200);
    expect(
      (
        await call('session-labels/by-list', {
          method: 'PUT',
          body: [
            { id, name: 'VIP!' },
            { id: 4, priority: 99 },
          ],
        })
      ).status,
    ).toBe(200);
    expect((await call(`logs/labels/sessions/${id}`)).body).toEqual({ id, name: 'VIP!', priority: 2 });
    expect((await call('logs/labels/sessions/4')).body.priority).toBe(99);
    expectBadParameter(
      await call('session-labels/by-list', { method: 'PUT', body: [{ id, name: 'Спам' }] }),
      400,
      'body[0].name',
    );
    expectBadParameter(
      await call('session-labels/by-list', { method: 'PUT', body: [{ id: 999 }] }),
      400,
      'body[0].id',
    );
    expectBadParameter(await call('logs/labels/sessions/999'), 404, 'id');
  });

  it('adds, removes and sets the labels of a session, visible in sessions/filter', async () => {
    const [session] = await someSessions(1, 1);
    const before = (await sessionWithLabels(session.sessionId)).labels.map((l: any) => l.id);
    const path = `session-labels/sessions?sessionId=${session.sessionId}`;
    expect((await call(path, { body: { labelId: 3 } })).status).toBe(200);
    const withIt = await sessionWithLabels(session.sessionId);
    expect(withIt.labels.map((l: any) => l.id).sort()).toEqual([...new Set([...before, 3])].sort());
    expect(withIt.labels.find((l: any) => l.id === 3)).toEqual({ id: 3, name: 'Жалоба 😡', priority: 3 });
    // messages/by-session shows the session with its labels too
    const bySession = await call(`messages/by-session?sessionId=${session.sessionId}`, {
      generation: 'legacy',
    });
    expect(bySession.body.session.labels.map((l: any) => l.id)).toContain(3);

    expect((await call(path, { method: 'DELETE', body: { labelId: 3 } })).status).toBe(200);
    expect((await sessionWithLabels(session.sessionId)).labels.map((l: any) => l.id).sort()).toEqual(
      [...before].sort(),
    );

    const set = await call(`session-labels/sessions/set-by-list?sessionId=${session.sessionId}`, {
      body: [{ labelId: 1 }, { labelId: 2 }, { labelId: 1 }],
    });
    expect(set.status).toBe(200);
    expect((await sessionWithLabels(session.sessionId)).labels.map((l: any) => l.id).sort()).toEqual([1, 2]);

    expectBadParameter(await call(path, { body: { labelId: 101 } }), 400, 'labelId');
    expectBadParameter(await call(path, { body: { label: 1 } }), 400, 'labelId');
    expectBadParameter(
      await call('session-labels/sessions?sessionId=nope', { body: { labelId: 1 } }),
      404,
      'sessionId',
    );
    expectBadParameter(await call('session-labels/sessions', { body: { labelId: 1 } }), 400, 'sessionId');
  });

  it('bulk-labels sessions by filters and by ids; deleting the label clears it everywhere', async () => {
    const created = await call('logs/labels/sessions', { body: { name: 'Telegram batch', priority: 20 } });
    const id = created.body.id;
    const bulk = await call('session-labels/sessions/bulk-labeling', {
      body: {
        comparisonType: 'CONTAINS',
        labels: [id],
        filters: {
          filters: [
            { key: 'CHANNEL_TYPE', type: 'CHECKBOX', comparisonType: 'CONTAINS', options: ['TELEGRAM'] },
          ],
        },
      },
    });
    expect(bulk.status).toBe(200);
    const t = truth();
    expect(t.sessionLabels['Telegram batch']).toBe(t.byChannel['telegram']!.sessions);

    const { rows } = await pageAll(
      call,
      'sessions/filter',
      'sessions',
      {},
      500,
      '&needToReturnSessionLabels=true',
    );
    expect(rows.length).toBe(t.sessions);
    const labelled = rows.filter((s) => s.labels.some((l: any) => l.id === id));
    expect(labelled.length).toBe(t.byChannel['telegram']!.sessions);
    expect(labelled.every((s) => s.channelType === 'telegram')).toBe(true);

    // by ids, with EXISTS: the two sessions get exactly this label
    const two = rows.filter((s) => s.channelType === 'vk').slice(0, 2);
    const byIds = await call('session-labels/sessions/bulk-labeling', {
      body: { comparisonType: 'EXISTS', labels: [id], objectIds: two.map((s) => s.sessionId) },
      generation: 'legacy',
    });
    expect(byIds.status).toBe(200);
    for (const s of two)
      expect((await sessionWithLabels(s.sessionId)).labels.map((l: any) => l.id)).toEqual([id]);
    expect(truth().sessionLabels['Telegram batch']).toBe(t.byChannel['telegram']!.sessions + 2);

    // NOT_EXISTS clears every label of the selection
    await call('session-labels/sessions/bulk-labeling', {
      body: { comparisonType: 'NOT_EXISTS', labels: [], objectIds: [two[0].sessionId] },
    });
    expect((await sessionWithLabels(two[0].sessionId)).labels).toEqual([]);

    expect((await call(`logs/labels/sessions/${id}`, { method: 'DELETE' })).status).toBe(200);
    expect(truth().sessionLabels['Telegram batch']).toBeUndefined();
    const afterDelete = await pageAll(
      call,
      'sessions/filter',
      'sessions',
      {},
      500,
      '&needToReturnSessionLabels=true',
    );
    expect(afterDelete.rows.some((s) => s.labels.some((l: any) => l.id === id))).toBe(false);
    expectBadParameter(
      await call('session-labels/sessions/bulk-labeling', {
        body: { comparisonType: 'CONTAINS', labels: [id], objectIds: [] },
      }),
      400,
      'labels[0]',
    );
    expectBadParameter(
      await call('session-labels/sessions/bulk-labeling', {
        body: { comparisonType: 'CONTAINS', labels: [1], objectIds: ['x'] },
      }),
      400,
      'objectIds[0]',
    );
    expectBadParameter(
      await call('session-labels/sessions/bulk-labeling', {
        body: { comparisonType: 'SOME', labels: [1], objectIds: [] },
      }),
      400,
      'comparisonType',
    );
  });
});
