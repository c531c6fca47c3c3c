// The catalogue of message labels and their groups: create, list, get, update, delete, change priority.
// Invariant: every label belongs to an existing group; deleting a label (or its group) removes it from
// every message, and ids are never reused, so a deleted label cannot come back on old records.
import { badParameter } from '../api-error.js';
import { requireArray, requireInt, requireObject, requireText } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { type Route, readRoute, writeRoute } from '../route.js';
import type { LabelGroup, MessageLabel } from '../state.js';
import {
  missing,
  optionalInt,
  optionalString,
  pathId,
  priorityChanges,
  readCatalogueUpdate,
} from './labels-lookup.js';

function labelOrFail(p: ProjectData, id: number): MessageLabel {
  const label = p.state.messageLabels.get(id);
  if (!label) throw missing('id', 'message label', String(id));
  return label;
}

function groupOrFail(p: ProjectData, id: number): LabelGroup {
  const group = p.state.labelGroups.get(id);
  if (!group) throw missing('id', 'label group', String(id));
  return group;
}

/** Groups by priority (ties by id). */
function sortedGroups(p: ProjectData): LabelGroup[] {
  return [...p.state.labelGroups.values()].sort((a, b) => a.priority - b.priority || a.id - b.id);
}

/** Labels by their group's order, then by priority (ties by id). */
export function sortedMessageLabels(p: ProjectData): MessageLabel[] {
  const rank = new Map(sortedGroups(p).map((g, n) => [g.id, n]));
  return [...p.state.messageLabels.values()].sort(
    (a, b) =>
      (rank.get(a.groupId) ?? 0) - (rank.get(b.groupId) ?? 0) || a.priority - b.priority || a.id - b.id,
  );
}

function groupDto(g: LabelGroup): { id: number; name: string; priority: number } {
  return { id: g.id, name: g.name, priority: g.priority };
}

/** Removes deleted message labels from the label sets people set on messages. */
function forgetMessageLabels(p: ProjectData, ids: ReadonlySet<number>): void {
  for (const set of p.state.messageLabelSets.values()) for (const id of ids) set.delete(id);
}

interface PlannedLabel {
  name: string;
  priority: number;
  /** An existing group, or a group to create (by name) when undefined. */
  groupId?: number;
  groupName: string;
  groupPriority?: number;
}

/**
 * Reads one `MessageLabelCreate {name, priority, group: {id?, name, priority?}}`. The group is found by id
 * (which must exist) or else by name; an unknown name creates the group. A label `id` in the body is ignored.
 */
function planLabel(p: ProjectData, value: unknown, at: string): PlannedLabel {
  const prefix = at === '' ? '' : `${at}.`;
  const body = requireObject(value, at === '' ? 'body' : at);
  const name = requireText(body['name'], `${prefix}name`);
  const priority = requireInt(body['priority'], `${prefix}priority`);
  const group = requireObject(body['group'], `${prefix}group`);
  const groupId = optionalInt(group['id'], `${prefix}group.id`);
  const groupPriority = optionalInt(group['priority'], `${prefix}group.priority`);
  if (groupId !== undefined) {
    const existing = p.state.labelGroups.get(groupId);
    if (!existing) throw badParameter(`${prefix}group.id`, `unknown label group ${groupId}`);
    return { name, priority, groupId, groupName: existing.name };
  }
  const groupName = requireText(group['name'], `${prefix}group.name`);
  const byName = [...p.state.labelGroups.values()].find((g) => g.name === groupName);
  return byName
    ? { name, priority, groupId: byName.id, groupName }
    : { name, priority, groupName, ...(groupPriority === undefined ? {} : { groupPriority }) };
}

/** Rejects a label whose name is already taken in its group (by the catalogue or earlier in the same request). */
function checkUnique(p: ProjectData, plans: PlannedLabel[], fieldOf: (n: number) => string): void {
  const taken = new Set([...p.state.messageLabels.values()].map((l) => `${l.groupId}|${l.name}`));
  plans.forEach((plan, n) => {
    const key = `${plan.groupId ?? `new:${plan.groupName}`}|${plan.name}`;
    if (taken.has(key))
      throw badParameter(
        fieldOf(n),
        `a label named ${JSON.stringify(plan.name)} already exists in group ${JSON.stringify(plan.groupName)}`,
      );
    taken.add(key);
  });
}

function createLabel(p: ProjectData, plan: PlannedLabel): MessageLabel {
  let groupId = plan.groupId;
  if (groupId === undefined) {
    const byName = [...p.state.labelGroups.values()].find((g) => g.name === plan.groupName);
    if (byName) groupId = byName.id;
    else {
      const maxPriority = Math.max(0, ...[...p.state.labelGroups.values()].map((g) => g.priority));
      groupId = p.state.newId();
      p.state.labelGroups.set(groupId, {
        id: groupId,
        name: plan.groupName,
        priority: plan.groupPriority ?? maxPriority + 1,
      });
    }
  }
  const label: MessageLabel = { id: p.state.newId(), name: plan.name, priority: plan.priority, groupId };
  p.state.messageLabels.set(label.id, label);
  return label;
}

export function messageLabelCatalogueRoutes(): Route[] {
  return [...listLabelRoutes(), ...listLabelListRoutes(), ...listLabelGroupRoutes()];
}

// one message label at a time: create, list, read, update, delete, and the priorities
function listLabelRoutes(): Route[] {
  return [
    writeRoute('POST', 'message/labels', 'createMessageLabel', (ctx) => {
      const p = ctx.project;
      const plan = planLabel(p, ctx.body, '');
      checkUnique(p, [plan], () => 'name');
      return p.messageLabelDtos([createLabel(p, plan).id])[0];
    }),
    readRoute('GET', 'message/labels', 'getMessageLabels', (ctx) =>
      ctx.project.messageLabelDtos(sortedMessageLabels(ctx.project).map((l) => l.id)),
    ),
    readRoute(
      'GET',
      'message/labels/{id}',
      'getMessageLabel',
      (ctx) => ctx.project.messageLabelDtos([labelOrFail(ctx.project, pathId(ctx)).id])[0],
    ),
    writeRoute('PUT', 'message/labels/{id}', 'updateMessageLabel', (ctx) => {
      const p = ctx.project;
      const label = labelOrFail(p, pathId(ctx));
      const body = requireObject(ctx.body);
      const name = requireText(body['name'], 'name');
      const groupId = requireInt(body['groupId'], 'groupId');
      const priority = requireInt(body['priority'], 'priority');
      if (!p.state.labelGroups.has(groupId)) throw badParameter('groupId', `unknown label group ${groupId}`);
      for (const other of p.state.messageLabels.values()) {
        if (other.id !== label.id && other.groupId === groupId && other.name === name) {
          throw badParameter('name', `a label named ${JSON.stringify(name)} already exists in that group`);
        }
      }
      Object.assign(label, { name, groupId, priority });
    }),
    writeRoute('DELETE', 'message/labels/{id}', 'deleteMessageLabel', (ctx) => {
      const p = ctx.project;
      const label = labelOrFail(p, pathId(ctx));
      p.state.messageLabels.delete(label.id);
      forgetMessageLabels(p, new Set([label.id]));
    }),
    writeRoute('PUT', 'message/labels/change-priority', 'updateMessageLabelsPriority', (ctx) => {
      const labels = ctx.project.state.messageLabels;
      for (const change of priorityChanges(ctx.body, labels, 'id'))
        labels.get(change.id)!.priority = change.priority;
    }),
  ];
}

// message labels by list: created or updated together, all checked first
function listLabelListRoutes(): Route[] {
  return [
    writeRoute('POST', 'message/labels/by-list', 'createMessageLabels', (ctx) => {
      const p = ctx.project;
      const plans = requireArray(ctx.body).map((item, n) => planLabel(p, item, `body[${n}]`));
      checkUnique(p, plans, (n) => `body[${n}].name`);
      for (const plan of plans) createLabel(p, plan);
    }),
    writeRoute('PUT', 'message/labels/by-list', 'updateMessageLabels', (ctx) => {
      const p = ctx.project;
      // UpdateMessageLabelDto {id, name?, priority?, groupId?, groupName?, groupPriority?}: all checked first
      const updates = requireArray(ctx.body).map((value, n) => {
        const { at, item, id, name, priority } = readCatalogueUpdate(
          value,
          n,
          p.state.messageLabels,
          'message label',
        );
        const groupId = optionalInt(item['groupId'], `${at}.groupId`);
        if (groupId !== undefined && !p.state.labelGroups.has(groupId))
          throw badParameter(`${at}.groupId`, `unknown label group ${groupId}`);
        const groupName = optionalString(item['groupName'], `${at}.groupName`);
        if (groupName === '') throw badParameter(`${at}.groupName`, 'expected a non-empty string');
        return {
          id,
          name,
          priority,
          groupId,
          groupName,
          groupPriority: optionalInt(item['groupPriority'], `${at}.groupPriority`),
        };
      });
      for (const u of updates) {
        const label = p.state.messageLabels.get(u.id)!;
        if (u.name !== undefined) label.name = u.name;
        if (u.priority !== undefined) label.priority = u.priority;
        if (u.groupId !== undefined) label.groupId = u.groupId;
        const group = p.state.labelGroups.get(label.groupId);
        if (group && u.groupName !== undefined) group.name = u.groupName;
        if (group && u.groupPriority !== undefined) group.priority = u.groupPriority;
      }
    }),
  ];
}

// label groups: list, read, update, delete (with their labels), and the priorities
function listLabelGroupRoutes(): Route[] {
  return [
    readRoute('GET', 'message/labels/groups', 'getLabelGroups', (ctx) =>
      sortedGroups(ctx.project).map(groupDto),
    ),
    writeRoute('PUT', 'message/labels/groups', 'updateMessageLabelGroups', (ctx) => {
      const p = ctx.project;
      const updates = requireArray(ctx.body).map((value, n) =>
        readCatalogueUpdate(value, n, p.state.labelGroups, 'label group'),
      );
      for (const u of updates) {
        const group = p.state.labelGroups.get(u.id)!;
        if (u.name !== undefined) group.name = u.name;
        if (u.priority !== undefined) group.priority = u.priority;
      }
    }),
    readRoute('GET', 'message/labels/groups/{id}', 'getLabelGroup', (ctx) =>
      groupDto(groupOrFail(ctx.project, pathId(ctx))),
    ),
    writeRoute('PUT', 'message/labels/groups/{id}', 'updateMessageLabelGroup', (ctx) => {
      const group = groupOrFail(ctx.project, pathId(ctx));
      const body = requireObject(ctx.body);
      const name = requireText(body['name'], 'name');
      const priority = requireInt(body['priority'], 'priority');
      Object.assign(group, { name, priority });
    }),
    writeRoute('DELETE', 'message/labels/groups/{id}', 'deleteMessageLabelGroup', (ctx) => {
      const p = ctx.project;
      const group = groupOrFail(p, pathId(ctx));
      // the group's labels go with it, and leave every message they were on
      const gone = new Set<number>();
      for (const label of p.state.messageLabels.values()) if (label.groupId === group.id) gone.add(label.id);
      for (const id of gone) p.state.messageLabels.delete(id);
      forgetMessageLabels(p, gone);
      p.state.labelGroups.delete(group.id);
    }),
    writeRoute('PUT', 'message/labels/groups/change-priority', 'updateGroupsPriority', (ctx) => {
      const groups = ctx.project.state.labelGroups;
      for (const change of priorityChanges(ctx.body, groups, 'id'))
        groups.get(change.id)!.priority = change.priority;
    }),
  ];
}
