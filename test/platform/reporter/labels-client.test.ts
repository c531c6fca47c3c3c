// The label catalogue client against the emulator: the operations the commands use on session labels,
// message labels and groups (read, create, update, delete), on both generations, checked against the
// emulator's state; a platform refusal becomes a typed error naming the parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMessageLabel,
  createSessionLabel,
  deleteLabelGroup,
  deleteMessageLabel,
  deleteSessionLabel,
  readLabelGroups,
  readMessageLabels,
  readSessionLabels,
  updateLabelGroup,
  updateMessageLabel,
  updateSessionLabel,
} from '../../../src/platform/reporter/labels.js';
import { type ClientHarness, createClientHarness } from './client-harness.js';

let c: ClientHarness;
beforeAll(async () => {
  c = await createClientHarness();
});
afterAll(() => c.close());

describe('session label catalogue', () => {
  it('reads the catalogue, on both generations', async () => {
    const truth = [...c.p.state.sessionLabels.values()].sort((a, b) => a.priority - b.priority);
    expect(await readSessionLabels(c.v1)).toEqual(truth);
    expect(await readSessionLabels(c.legacy)).toEqual(truth);
  });

  it('creates, updates and deletes', async () => {
    const created = await createSessionLabel(c.v1, { name: 'Клиентский тест', priority: 9 });
    expect(c.p.state.sessionLabels.get(created.id)).toEqual({
      id: created.id,
      name: 'Клиентский тест',
      priority: 9,
    });
    const taken = await createSessionLabel(c.v1, { name: 'Клиентский тест', priority: 1 }).catch(
      (e: unknown) => e,
    );
    expect(taken).toMatchObject({ code: 'reporter.bad_request' });
    expect((taken as Error).message).toMatch(/name: a session label named/);

    await updateSessionLabel(c.v1, created.id, { name: 'Тест клиента', priority: 8 });
    expect(c.p.state.sessionLabels.get(created.id)).toMatchObject({ name: 'Тест клиента', priority: 8 });

    await deleteSessionLabel(c.v1, created.id);
    expect(c.p.state.sessionLabels.has(created.id)).toBe(false);
  });
});

describe('message label catalogue and groups', () => {
  it('reads labels with their groups, and the groups', async () => {
    const labels = await readMessageLabels(c.v1);
    expect(labels.map((l) => l.id).sort()).toEqual([...c.p.state.messageLabels.keys()].sort());
    for (const label of labels) {
      const truth = c.p.state.messageLabels.get(label.id)!;
      expect(label).toMatchObject({
        name: truth.name,
        priority: truth.priority,
        group: { id: truth.groupId },
      });
    }
    const groups = await readLabelGroups(c.v1);
    expect(groups).toEqual([...c.p.state.labelGroups.values()].sort((a, b) => a.priority - b.priority));
  });

  it('creates labels in an existing group and in a new one', async () => {
    const inGroup = await createMessageLabel(c.v1, { name: 'Грубо', priority: 4, group: { id: 11 } });
    expect(c.p.state.messageLabels.get(inGroup.id)).toMatchObject({
      name: 'Грубо',
      groupId: 11,
      priority: 4,
    });
    const newGroup = await createMessageLabel(c.v1, {
      name: 'Первая',
      priority: 1,
      group: { name: 'Новая группа' },
    });
    const group = [...c.p.state.labelGroups.values()].find((g) => g.name === 'Новая группа')!;
    expect(newGroup.group).toMatchObject({ id: group.id, name: 'Новая группа' });
    const names = [...c.p.state.messageLabels.values()]
      .filter((l) => l.groupId === group.id)
      .map((l) => l.name);
    expect(names).toEqual(['Первая']);
  });

  it('updates a label and a group', async () => {
    const label = (await readMessageLabels(c.v1)).find((l) => l.name === 'Грубо')!;
    await updateMessageLabel(c.v1, label.id, { name: 'Грубый ответ', groupId: 12, priority: 5 });
    expect(c.p.state.messageLabels.get(label.id)).toMatchObject({
      name: 'Грубый ответ',
      groupId: 12,
      priority: 5,
    });

    const group = [...c.p.state.labelGroups.values()].find((g) => g.name === 'Новая группа')!;
    await updateLabelGroup(c.v1, group.id, { name: 'Опрос', priority: 9 });
    expect(c.p.state.labelGroups.get(group.id)).toMatchObject({ name: 'Опрос', priority: 9 });
  });

  it('deletes a label, and a group with its labels', async () => {
    const label = [...c.p.state.messageLabels.values()].find((l) => l.name === 'Грубый ответ')!;
    await deleteMessageLabel(c.v1, label.id);
    expect(c.p.state.messageLabels.has(label.id)).toBe(false);
    const group = [...c.p.state.labelGroups.values()].find((g) => g.name === 'Опрос')!;
    await deleteLabelGroup(c.legacy, group.id);
    expect(c.p.state.labelGroups.has(group.id)).toBe(false);
    expect([...c.p.state.messageLabels.values()].some((l) => l.groupId === group.id)).toBe(false);
    const again = await deleteLabelGroup(c.v1, group.id).catch((e: unknown) => e);
    expect(again).toMatchObject({ code: 'reporter.not_found' });
  });
});
