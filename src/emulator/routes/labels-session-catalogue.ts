// The catalogue of session labels: create, list, get, update (one or by list), delete, change priority.
// Invariant: names are unique; deleting a label removes it from every session, and ids are never reused.
import { badParameter } from '../api-error.js';
import { requireArray, requireInt, requireObject, requireText } from '../params.js';
import type { ProjectData } from '../project-data.js';
import type { Route, RouteContext } from '../route.js';
import type { SessionLabel } from '../state.js';
import { missing, readCatalogueUpdate } from './labels-lookup.js';

function labelOrFail(ctx: RouteContext): SessionLabel {
  const raw = ctx.params['id'] ?? '';
  if (!/^\d+$/.test(raw)) throw badParameter('id', `expected an integer, got ${JSON.stringify(raw)}`);
  const label = ctx.project.state.sessionLabels.get(Number(raw));
  if (!label) throw missing('id', 'session label', raw);
  return label;
}

/** Session labels by priority (ties by id): the order of the list operation and of filter options. */
export function sortedSessionLabels(p: ProjectData): SessionLabel[] {
  return [...p.state.sessionLabels.values()].sort((a, b) => a.priority - b.priority || a.id - b.id);
}

function nameTaken(p: ProjectData, name: string, except?: number): boolean {
  for (const label of p.state.sessionLabels.values())
    if (label.name === name && label.id !== except) return true;
  return false;
}

/** `SessionLabelCreate {name, priority}`, both required. */
function readLabel(body: unknown): { name: string; priority: number } {
  const o = requireObject(body);
  return { name: requireText(o['name'], 'name'), priority: requireInt(o['priority'], 'priority') };
}

export function sessionLabelCatalogueRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: 'logs/labels/sessions',
      op: 'createSessionLabel',
      write: true,
      handler(ctx) {
        const p = ctx.project;
        const { name, priority } = readLabel(ctx.body);
        if (nameTaken(p, name))
          throw badParameter('name', `a session label named ${JSON.stringify(name)} already exists`);
        const label: SessionLabel = { id: p.state.newId(), name, priority };
        p.state.sessionLabels.set(label.id, label);
        p.state.touch();
        return { body: { ...label } };
      },
    },
    {
      method: 'GET',
      path: 'logs/labels/sessions',
      op: 'getSessionLabels',
      handler(ctx) {
        return { body: sortedSessionLabels(ctx.project).map((l) => ({ ...l })) };
      },
    },
    {
      method: 'GET',
      path: 'logs/labels/sessions/{id}',
      op: 'getSessionLabel',
      handler(ctx) {
        return { body: { ...labelOrFail(ctx) } };
      },
    },
    {
      method: 'PUT',
      path: 'logs/labels/sessions/{id}',
      op: 'updateSessionLabel',
      write: true,
      handler(ctx) {
        const label = labelOrFail(ctx);
        const { name, priority } = readLabel(ctx.body);
        if (nameTaken(ctx.project, name, label.id))
          throw badParameter('name', `a session label named ${JSON.stringify(name)} already exists`);
        Object.assign(label, { name, priority });
        ctx.project.state.touch();
        return {};
      },
    },
    {
      method: 'DELETE',
      path: 'logs/labels/sessions/{id}',
      op: 'deleteSessionLabel',
      write: true,
      handler(ctx) {
        const p = ctx.project;
        const label = labelOrFail(ctx);
        p.state.sessionLabels.delete(label.id);
        for (const set of p.state.sessionLabelSets.values()) set.delete(label.id);
        p.state.touch();
        return {};
      },
    },
    {
      method: 'PUT',
      path: 'logs/labels/sessions/change-priority',
      op: 'updateSessionsPriority',
      write: true,
      handler(ctx) {
        const p = ctx.project;
        const changes = requireArray(ctx.body).map((value, n) => {
          const item = requireObject(value, `body[${n}]`);
          const id = requireInt(item['id'], `body[${n}].id`);
          if (!p.state.sessionLabels.has(id))
            throw badParameter(`body[${n}].id`, `unknown session label ${id}`);
          return { id, priority: requireInt(item['newPriority'], `body[${n}].newPriority`) };
        });
        for (const c of changes) p.state.sessionLabels.get(c.id)!.priority = c.priority;
        p.state.touch();
        return {};
      },
    },
    {
      method: 'PUT',
      path: 'session-labels/by-list',
      op: 'updateSessionLabels',
      write: true,
      handler(ctx) {
        const p = ctx.project;
        // UpdateSessionLabelDto {id, name?, priority?}: every item checked before anything changes
        const updates = requireArray(ctx.body).map((value, n) =>
          readCatalogueUpdate(value, n, p.state.sessionLabels, 'session label'),
        );
        const names = new Map([...p.state.sessionLabels.values()].map((l) => [l.id, l.name]));
        for (const u of updates) if (u.name !== undefined) names.set(u.id, u.name);
        const seen = new Set<string>();
        for (const [id, name] of names) {
          if (seen.has(name)) {
            const n = updates.findIndex((u) => u.id === id || u.name === name);
            throw badParameter(
              `body[${Math.max(0, n)}].name`,
              `a session label named ${JSON.stringify(name)} already exists`,
            );
          }
          seen.add(name);
        }
        for (const u of updates) {
          const label = p.state.sessionLabels.get(u.id)!;
          if (u.name !== undefined) label.name = u.name;
          if (u.priority !== undefined) label.priority = u.priority;
        }
        p.state.touch();
        return {};
      },
    },
  ];
}
