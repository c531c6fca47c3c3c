// Labels and comments that people put on messages and sessions: add, remove, replace, bulk-label (by ids or
// by filters) and comment. Invariant: a change writes the record's whole label set into the state (it then
// replaces the seeded labels of that record), and only when the set actually changes.
import { badParameter } from '../api-error.js';
import { type CompiledFilters, compileFilterList } from '../filters.js';
import { requireArray, requiredString, requireInt, requireObject, requireText } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { selectMessages, selectSessions } from '../query.js';
import { type Route, type RouteContext, writeRoute } from '../route.js';
import { findMessage, findSession, labelIdListOf, labelIdOf, missing } from './labels-lookup.js';

const BULK_MODES = ['NOT_IMPORTANT', 'NOT_EXISTS', 'EXISTS', 'CONTAINS', 'NOT_CONTAINS'] as const;
type BulkMode = (typeof BULK_MODES)[number];

/**
 * What bulk labelling does with `labels` per `comparisonType` (the vendor reuses the checkbox comparison):
 * CONTAINS adds them, NOT_CONTAINS removes them, EXISTS makes them the record's exact set, NOT_EXISTS
 * removes every label (then `labels` may be empty), NOT_IMPORTANT changes nothing.
 */
function applyMode(current: readonly number[], mode: BulkMode, labels: readonly number[]): number[] {
  switch (mode) {
    case 'CONTAINS':
      return [...new Set([...current, ...labels])];
    case 'NOT_CONTAINS':
      return current.filter((id) => !labels.includes(id));
    case 'EXISTS':
      return [...new Set(labels)];
    case 'NOT_EXISTS':
      return [];
    default:
      return [...current];
  }
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((id) => set.has(id));
}

function setMessageLabels(
  p: ProjectData,
  i: number,
  k: number,
  now: number,
  next: number[],
  force = false,
): void {
  if (!force && sameSet(p.messageLabelIds(i, k, now), next)) return;
  p.state.messageLabelSets.set(p.skeleton.msgOffset.get(i) + k, new Set(next));
}

function setSessionLabels(p: ProjectData, i: number, now: number, next: number[], force = false): void {
  if (!force && sameSet(p.sessionLabelIds(i, now), next)) return;
  p.state.sessionLabelSets.set(i, new Set(next));
}

function messageOrFail(ctx: RouteContext, questionId: string): { i: number; k: number; key: number } {
  const at = findMessage(ctx.project, questionId, ctx.now);
  if (!at) throw missing('questionId', 'message', questionId);
  return at;
}

function sessionOrFail(ctx: RouteContext): number {
  const sessionId = requiredString(ctx.query, 'sessionId');
  const i = findSession(ctx.project, sessionId, ctx.now);
  if (i === undefined) throw missing('sessionId', 'session', sessionId);
  return i;
}

interface BulkRequest {
  mode: BulkMode;
  labels: number[];
  objectIds?: string[];
  filters?: CompiledFilters;
}

/** `BulkLabelingDto {comparisonType, labels, objectIds?, filters?}`: objectIds win when both are given. */
function readBulk(body: unknown, catalogue: ReadonlyMap<number, unknown>): BulkRequest {
  const o = requireObject(body);
  const mode = o['comparisonType'];
  if (typeof mode !== 'string' || !(BULK_MODES as readonly string[]).includes(mode)) {
    throw badParameter('comparisonType', `expected one of ${BULK_MODES.join(', ')}`);
  }
  const labels = requireArray(o['labels'], 'labels').map((value, n) => {
    const id = requireInt(value, `labels[${n}]`);
    if (!catalogue.has(id)) throw badParameter(`labels[${n}]`, `unknown label id ${id}`);
    return id;
  });
  const request: BulkRequest = { mode: mode as BulkMode, labels };
  if (o['objectIds'] !== undefined && o['objectIds'] !== null) {
    request.objectIds = requireArray(o['objectIds'], 'objectIds').map((value, n) => {
      if (typeof value !== 'string' || value === '')
        throw badParameter(`objectIds[${n}]`, 'expected a non-empty string');
      return value;
    });
    return request;
  }
  const filters = o['filters'];
  if (filters === undefined || filters === null)
    throw badParameter('objectIds', 'either objectIds or filters is required');
  // FiltersDto {filters: [...]} as published; a bare array of filters is accepted too
  request.filters = Array.isArray(filters)
    ? compileFilterList(filters, 'filters')
    : compileFilterList(requireObject(filters, 'filters')['filters'] ?? [], 'filters.filters');
  return request;
}

/** Adds (CONTAINS) or removes (NOT_CONTAINS) one label (`LabelIdDto`) on the message `?questionId`. */
function editMessageLabel(method: 'POST' | 'DELETE', op: string, mode: BulkMode): Route {
  return writeRoute(method, 'message/labels/logs', op, (ctx) => {
    const p = ctx.project;
    const at = messageOrFail(ctx, requiredString(ctx.query, 'questionId'));
    const id = labelIdOf(ctx.body, p.state.messageLabels);
    setMessageLabels(p, at.i, at.k, ctx.now, applyMode(p.messageLabelIds(at.i, at.k, ctx.now), mode, [id]));
  });
}

/** Adds (CONTAINS) or removes (NOT_CONTAINS) one label (`LabelIdDto`) on the session `?sessionId`. */
function editSessionLabel(method: 'POST' | 'DELETE', op: string, mode: BulkMode): Route {
  return writeRoute(method, 'session-labels/sessions', op, (ctx) => {
    const p = ctx.project;
    const i = sessionOrFail(ctx);
    const id = labelIdOf(ctx.body, p.state.sessionLabels);
    setSessionLabels(p, i, ctx.now, applyMode(p.sessionLabelIds(i, ctx.now), mode, [id]));
  });
}

function commentRoutes(): Route[] {
  return [
    writeRoute('POST', 'comments/{questionId}', 'addCommentToMessage', (ctx) => {
      const questionId = ctx.params['questionId'] ?? '';
      const at = messageOrFail(ctx, questionId);
      const body = requireObject(ctx.body);
      // AddCommentDto also names the message (spelled questionid in the vendor's schema): it must agree
      for (const field of ['questionId', 'questionid']) {
        const named = body[field];
        if (named !== undefined && named !== null && named !== questionId) {
          throw badParameter(
            field,
            `names message ${JSON.stringify(named)}, but the path names ${questionId}`,
          );
        }
      }
      ctx.project.state.comments.set(at.key, requireText(body['comment'], 'comment'));
    }),
    writeRoute('DELETE', 'comments/{questionId}', 'deleteCommentFromMessage', (ctx) => {
      ctx.project.state.comments.set(messageOrFail(ctx, ctx.params['questionId'] ?? '').key, null);
    }),
  ];
}

function messageLabelRoutes(): Route[] {
  return [
    editMessageLabel('POST', 'addLabelToMessage', 'CONTAINS'),
    editMessageLabel('DELETE', 'deleteLabelFromMessage', 'NOT_CONTAINS'),
    writeRoute('POST', 'message/labels/logs/set-by-list', 'setMessageLabels', (ctx) => {
      const p = ctx.project;
      const at = messageOrFail(ctx, requiredString(ctx.query, 'questionId'));
      const ids = labelIdListOf(ctx.body, p.state.messageLabels);
      setMessageLabels(p, at.i, at.k, ctx.now, [...new Set(ids)], true);
    }),
    writeRoute('POST', 'message/labels/logs/bulk-labeling', 'setLabelToMessages', (ctx) => {
      const p = ctx.project;
      const bulk = readBulk(ctx.body, p.state.messageLabels);
      const refs = bulk.objectIds
        ? bulk.objectIds.map((id, n) => {
            const at = findMessage(p, id, ctx.now);
            if (!at) throw badParameter(`objectIds[${n}]`, `unknown message ${id}`);
            return at;
          })
        : selectMessages(p, bulk.filters!, ctx.now);
      for (const { i, k } of refs)
        setMessageLabels(
          p,
          i,
          k,
          ctx.now,
          applyMode(p.messageLabelIds(i, k, ctx.now), bulk.mode, bulk.labels),
        );
    }),
  ];
}

function sessionLabelRoutes(): Route[] {
  return [
    editSessionLabel('POST', 'addLabelToSession', 'CONTAINS'),
    editSessionLabel('DELETE', 'deleteLabelFromSession', 'NOT_CONTAINS'),
    writeRoute('POST', 'session-labels/sessions/set-by-list', 'setSessionLabels', (ctx) => {
      const p = ctx.project;
      const i = sessionOrFail(ctx);
      const ids = labelIdListOf(ctx.body, p.state.sessionLabels);
      setSessionLabels(p, i, ctx.now, [...new Set(ids)], true);
    }),
    writeRoute('POST', 'session-labels/sessions/bulk-labeling', 'setLabelToSessions', (ctx) => {
      const p = ctx.project;
      const bulk = readBulk(ctx.body, p.state.sessionLabels);
      const sessions: ArrayLike<number> = bulk.objectIds
        ? bulk.objectIds.map((id, n) => {
            const i = findSession(p, id, ctx.now);
            if (i === undefined) throw badParameter(`objectIds[${n}]`, `unknown session ${id}`);
            return i;
          })
        : selectSessions(p, bulk.filters!, ctx.now);
      for (let n = 0; n < sessions.length; n++) {
        const i = sessions[n]!;
        setSessionLabels(p, i, ctx.now, applyMode(p.sessionLabelIds(i, ctx.now), bulk.mode, bulk.labels));
      }
    }),
  ];
}

export function labelAssignmentRoutes(): Route[] {
  return [...messageLabelRoutes(), ...sessionLabelRoutes(), ...commentRoutes()];
}
