// Projects and settings: list/create/rename/delete projects (administrative key), the project of a project
// key (`GET /info`), and a project's settings (either key; a project key only its own project).
import { KbError } from './kb-error.js';
import { iso, projectWire } from './kb-model.js';
import { idParam, type KbContext, type KbRoute, kbPage, nameFilter } from './kb-router.js';
import { checkKbSettings } from './kb-settings.js';

const bodyOf = (ctx: KbContext): Record<string, unknown> =>
  typeof ctx.body === 'object' && ctx.body !== null && !Array.isArray(ctx.body)
    ? (ctx.body as Record<string, unknown>)
    : {};

/** The project of a settings call: any with the administrative key, only its own with a project key. */
function settingsProject(ctx: KbContext): number {
  const id = idParam(ctx, 'projectId');
  if (ctx.projectId !== undefined && ctx.projectId !== id)
    throw new KbError(403, 'kb.forbidden.project', `the key has no access to project ${id}`);
  ctx.kb.project(id);
  return id;
}

export function projectRoutes(): KbRoute[] {
  return [
    {
      method: 'GET',
      path: 'projects',
      op: 'listProjects',
      access: 'admin',
      handler(ctx) {
        const keep = nameFilter(ctx.query);
        const rows = [...ctx.kb.projects.values()].filter((p) => keep(p.name)).sort((a, b) => a.id - b.id);
        const { items, paging } = kbPage(ctx.query, rows);
        return { body: { content: items.map((p) => projectWire(p, ctx.kb.projectStatus(p))), paging } };
      },
    },
    {
      method: 'POST',
      path: 'projects',
      op: 'createProject',
      access: 'admin',
      handler(ctx) {
        const p = ctx.kb.createProject(bodyOf(ctx)['name'], ctx.now);
        return { body: projectWire(p, ctx.kb.projectStatus(p)) };
      },
    },
    {
      method: 'GET',
      path: 'info',
      op: 'getProjectInfo',
      access: 'project',
      handler(ctx) {
        const p = ctx.kb.project(ctx.projectId!);
        return { body: projectWire(p, ctx.kb.projectStatus(p)) };
      },
    },
    {
      method: 'PUT',
      path: 'projects/{projectId}',
      op: 'renameProject',
      access: 'admin',
      handler(ctx) {
        const p = ctx.kb.renameProject(idParam(ctx, 'projectId'), bodyOf(ctx)['name'], ctx.now);
        return { body: projectWire(p, ctx.kb.projectStatus(p)) };
      },
    },
    {
      method: 'DELETE',
      path: 'projects/{projectId}',
      op: 'deleteProject',
      access: 'admin',
      handler(ctx) {
        const id = idParam(ctx, 'projectId');
        ctx.kb.deleteProject(id);
        return {
          body: { code: 'kb.project.deleted', description: `project ${id} deleted at ${iso(ctx.now)}` },
        };
      },
    },
    {
      method: 'GET',
      path: 'projects/{projectId}/settings',
      op: 'getProjectSettings',
      access: 'either',
      handler(ctx) {
        return { body: structuredClone(ctx.kb.project(settingsProject(ctx)).settings) };
      },
    },
    {
      method: 'POST',
      path: 'projects/{projectId}/settings',
      op: 'updateProjectSettings',
      access: 'either',
      handler(ctx) {
        const id = settingsProject(ctx);
        const p = ctx.kb.setSettings(id, checkKbSettings(ctx.body), ctx.now);
        return { body: structuredClone(p.settings) };
      },
    },
  ];
}
