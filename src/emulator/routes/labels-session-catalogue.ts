// The catalogue of session labels: create, list, get, update (one or by list), delete, change priority.
// Invariant: names are unique; deleting a label removes it from every session, and ids are never reused.
import { badParameter } from '../api-error.js';
import { requireArray, requireInt, requireObject, requireText } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { type Route, type RouteContext, readRoute, writeRoute } from '../route.js';
import type { SessionLabel } from '../state.js';
import { missing, pathId, priorityChanges, readCatalogueUpdate } from './labels-lookup.js';

function labelOrFail(ctx: RouteContext): SessionLabel {
  const label = ctx.project.state.sessionLabels.get(pathId(ctx));
  if (!label) throw missing('id', 'session label', ctx.params['id'] ?? '');
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

/** `SessionLabelCreate {name, priority}`, both required; the name not taken by another label than `except`. */
function readLabel(p: ProjectData, body: unknown, except?: number): { name: string; priority: number } {
  const o = requireObject(body);
  const label = { name: requireText(o['name'], 'name'), priority: requireInt(o['priority'], 'priority') };
  if (nameTaken(p, label.name, except))
    throw badParameter('name', `a session label named ${JSON.stringify(label.name)} already exists`);
  return label;
}

export function sessionLabelCatalogueRoutes(): Route[] {
  return [
    writeRoute('POST', 'logs/labels/sessions', 'createSessionLabel', (ctx) => {
      const p = ctx.project;
      const { name, priority } = readLabel(p, ctx.body);
      const label: SessionLabel = { id: p.state.newId(), name, priority };
      p.state.sessionLabels.set(label.id, label);
      return { ...label };
    }),
    readRoute('GET', 'logs/labels/sessions', 'getSessionLabels', (ctx) =>
      sortedSessionLabels(ctx.project).map((l) => ({ ...l })),
    ),
    readRoute('GET', 'logs/labels/sessions/{id}', 'getSessionLabel', (ctx) => ({ ...labelOrFail(ctx) })),
    writeRoute('PUT', 'logs/labels/sessions/{id}', 'updateSessionLabel', (ctx) => {
      const label = labelOrFail(ctx);
      Object.assign(label, readLabel(ctx.project, ctx.body, label.id));
    }),
    writeRoute('DELETE', 'logs/labels/sessions/{id}', 'deleteSessionLabel', (ctx) => {
      const p = ctx.project;
      const label = labelOrFail(ctx);
      p.state.sessionLabels.delete(label.id);
      for (const set of p.state.sessionLabelSets.values()) set.delete(label.id);
    }),
    writeRoute('PUT', 'logs/labels/sessions/change-priority', 'updateSessionsPriority', (ctx) => {
      const labels = ctx.project.state.sessionLabels;
      for (const c of priorityChanges(ctx.body, labels, 'session label'))
        labels.get(c.id)!.priority = c.priority;
    }),
    writeRoute('PUT', 'session-labels/by-list', 'updateSessionLabels', (ctx) => {
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
    }),
  ];
}
