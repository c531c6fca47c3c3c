// Administrative operations: a project's API keys (create answers the key value once; list paged with
// `onlyActive`; revoke) and the account's access groups (paged, with file and integration counts; one group
// with its files). Status of a key is computed at the clock: a key can expire while a client runs.
import { kbBadRequest } from './kb-error.js';
import { apiKeyStatus, apiKeyWire, iso } from './kb-model.js';
import { idList, idParam, type KbContext, type KbRoute, kbPage, nameFilter } from './kb-router.js';
import type { KbGroup } from './kb-service.js';

function groupWire(ctx: KbContext, g: KbGroup, projectIds?: number[]): Record<string, unknown> {
  return {
    id: g.id,
    name: g.name,
    filesCount: ctx.kb.groupSources(g.name, projectIds).length,
    integrationsCount: ctx.kb.groupIntegrations(g.name, projectIds).length,
    audit: { createdAt: iso(g.createdAt), updatedAt: iso(g.updatedAt), createdBy: 1, updatedBy: 1 },
  };
}

export function adminRoutes(): KbRoute[] {
  return [
    {
      method: 'POST',
      path: 'projects/{projectId}/api-keys',
      op: 'createApiKey',
      access: 'admin',
      handler(ctx) {
        const body = ctx.body;
        if (typeof body !== 'object' || body === null || Array.isArray(body))
          throw kbBadRequest('body', 'expected a JSON object with name');
        const key = ctx.kb.createKey(idParam(ctx, 'projectId'), body as Record<string, unknown>, ctx.now);
        return { body: apiKeyWire(key, ctx.now, true) };
      },
    },
    {
      method: 'GET',
      path: 'projects/{projectId}/api-keys',
      op: 'listApiKeys',
      access: 'admin',
      handler(ctx) {
        const projectId = idParam(ctx, 'projectId');
        ctx.kb.project(projectId);
        const onlyActive = ctx.query.get('onlyActive');
        if (onlyActive !== null && onlyActive !== 'true' && onlyActive !== 'false')
          throw kbBadRequest('onlyActive', 'expected true or false');
        const keys = ctx.kb
          .keysOf(projectId)
          .filter((k) => onlyActive !== 'true' || apiKeyStatus(k, ctx.now) === 'ACTIVE');
        const { items, paging } = kbPage(ctx.query, keys);
        return { body: { content: items.map((k) => apiKeyWire(k, ctx.now)), paging } };
      },
    },
    {
      method: 'POST',
      path: 'projects/{projectId}/api-keys/{apiKeyId}/revoke',
      op: 'revokeApiKey',
      access: 'admin',
      handler(ctx) {
        const key = ctx.kb.revokeKey(idParam(ctx, 'projectId'), idParam(ctx, 'apiKeyId'), ctx.now);
        return { body: apiKeyWire(key, ctx.now) };
      },
    },
    {
      method: 'GET',
      path: 'access-groups',
      op: 'listAccessGroups',
      access: 'admin',
      handler(ctx) {
        const keep = nameFilter(ctx.query, 'name', 100);
        const projectIds = idList(ctx.query, 'projectIds');
        const groups = [...ctx.kb.groups.values()]
          .filter((g) => keep(g.name))
          .filter(
            (g) =>
              projectIds === undefined ||
              ctx.kb.groupSources(g.name, projectIds).length +
                ctx.kb.groupIntegrations(g.name, projectIds).length >
                0,
          )
          .sort((a, b) => a.id - b.id);
        const { items, paging } = kbPage(ctx.query, groups);
        return { body: { content: items.map((g) => groupWire(ctx, g, projectIds)), paging } };
      },
    },
    {
      method: 'GET',
      path: 'access-groups/{attributeId}',
      op: 'getAccessGroup',
      access: 'admin',
      handler(ctx) {
        const group = ctx.kb.groupById(idParam(ctx, 'attributeId'));
        const projectIds = idList(ctx.query, 'projectIds');
        const keep = nameFilter(ctx.query, 'filename', 255);
        const segments = ctx.query.get('segments')?.split(',').filter(Boolean);
        const files = ctx.kb
          .groupSources(group.name, projectIds)
          .filter((s) => keep(s.name))
          .filter((s) => !segments || s.segments.some((g) => segments.includes(g)))
          .map((s) => ({
            filename: s.name,
            projectName: ctx.kb.project(s.projectId).name,
            projectId: s.projectId,
            segments: [...s.segments],
          }));
        const { items, paging } = kbPage(ctx.query, files);
        return { body: { attribute: groupWire(ctx, group), files: items, paging } };
      },
    },
  ];
}
