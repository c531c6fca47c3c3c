// Integrations (create, list `{integrations}`, get) and segments (paged list with counts, rename, add to and
// remove from sources, each answering `{updatedFileIds}`), on the project of the key.

import { kbBadRequest } from './kb-error.js';
import { integrationWire } from './kb-model.js';
import { bigIdParam, type KbContext, type KbRoute, kbPage, nameFilter } from './kb-router.js';

function objectBody(ctx: KbContext): Record<string, unknown> {
  if (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body))
    throw kbBadRequest('body', 'expected a JSON object');
  return ctx.body as Record<string, unknown>;
}

export function catalogRoutes(): KbRoute[] {
  return [
    {
      method: 'POST',
      path: 'integrations',
      op: 'createIntegration',
      access: 'project',
      handler(ctx) {
        const i = ctx.kb.createIntegration(ctx.projectId!, objectBody(ctx), ctx.now);
        return { body: integrationWire(i, ctx.now) };
      },
    },
    {
      method: 'GET',
      path: 'integrations',
      op: 'listIntegrations',
      access: 'project',
      handler(ctx) {
        return {
          body: {
            integrations: ctx.kb.integrationsOf(ctx.projectId!).map((i) => integrationWire(i, ctx.now)),
          },
        };
      },
    },
    {
      method: 'GET',
      path: 'integrations/{integrationId}',
      op: 'getIntegration',
      access: 'project',
      handler(ctx) {
        return {
          body: integrationWire(
            ctx.kb.integration(ctx.projectId!, bigIdParam(ctx, 'integrationId')),
            ctx.now,
          ),
        };
      },
    },
    {
      method: 'GET',
      path: 'segments',
      op: 'listSegments',
      access: 'project',
      handler(ctx) {
        const keep = nameFilter(ctx.query);
        const { items, paging } = kbPage(
          ctx.query,
          ctx.kb.segmentsOf(ctx.projectId!).filter((s) => keep(s.name)),
        );
        return { body: { segments: items, paging } };
      },
    },
    {
      method: 'POST',
      path: 'segments/rename',
      op: 'renameSegment',
      access: 'project',
      handler(ctx) {
        const b = objectBody(ctx);
        return { body: { updatedFileIds: ctx.kb.renameSegment(ctx.projectId!, b['oldName'], b['newName']) } };
      },
    },
    {
      method: 'POST',
      path: 'segments/add-to-sources',
      op: 'addSegmentsToSources',
      access: 'project',
      handler(ctx) {
        const b = objectBody(ctx);
        return {
          body: { updatedFileIds: ctx.kb.addSegments(ctx.projectId!, b['sourceIds'], b['segments']) },
        };
      },
    },
    {
      method: 'POST',
      path: 'segments/remove-from-sources',
      op: 'removeSegmentsFromSources',
      access: 'project',
      handler(ctx) {
        const b = objectBody(ctx);
        return {
          body: { updatedFileIds: ctx.kb.removeSegments(ctx.projectId!, b['sourceIds'], b['segments']) },
        };
      },
    },
  ];
}
