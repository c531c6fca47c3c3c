// Lookups shared by the operations that change what people see (labels, comments, clients, experiments):
// a session, message or client exists for a request only when it is visible at the request's clock
// (started by then, not withheld); every failure is an ErrorDto naming the parameter or body field at fault.
import { ApiError, badParameter } from '../api-error.js';
import { requireArray, requireInt, requireObject } from '../params.js';
import type { ProjectData } from '../project-data.js';
import type { RouteContext } from '../route.js';

/** 404 naming the query or path parameter whose record does not exist. */
export function missing(parameter: string, what: string, id: string): ApiError {
  return new ApiError(404, 'reporter.not_found', `${parameter}: ${what} ${id} not found`, { parameter, id });
}

/** The index of a session visible at `now`, or undefined. */
export function findSession(p: ProjectData, id: string, now: number): number | undefined {
  const i = p.sessionIndex(id);
  if (i === undefined || p.skeleton.start.get(i) > now || p.withheld.has(i)) return undefined;
  return i;
}

/** A message visible at `now` (its session visible, its timestamp reached), with its global index. */
export function findMessage(
  p: ProjectData,
  id: string,
  now: number,
): { i: number; k: number; key: number } | undefined {
  const at = p.messageIndex(id);
  if (!at || p.withheld.has(at.i) || p.skeleton.messageTime(at.i, at.k) > now) return undefined;
  return { ...at, key: p.skeleton.msgOffset.get(at.i) + at.k };
}

/** A client that exists at `now`: its first session has started. */
export function findClient(p: ProjectData, id: string, now: number): number | undefined {
  const c = p.clientIndex(id);
  if (c === undefined || p.skeleton.start.get(p.skeleton.clientCreator.get(c)) > now) return undefined;
  return c;
}

/** `LabelIdDto {labelId}` read from `value` (the body, or `at` = `body[n]` in a list); the id must be in `catalogue`. */
export function labelIdOf(value: unknown, catalogue: ReadonlyMap<number, unknown>, at?: string): number {
  const body = requireObject(value, at ?? 'body');
  const field = at === undefined ? 'labelId' : `${at}.labelId`;
  const id = requireInt(body['labelId'], field);
  if (!catalogue.has(id)) throw badParameter(field, `unknown label id ${id}`);
  return id;
}

/** A list body of `LabelIdDto`, each id known. */
export function labelIdListOf(body: unknown, catalogue: ReadonlyMap<number, unknown>): number[] {
  return requireArray(body).map((item, n) => labelIdOf(item, catalogue, `body[${n}]`));
}

/** An optional string field: absent (undefined or null) or a string. */
export function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badParameter(field, `expected a string, got ${JSON.stringify(value)}`);
  return value;
}

/** An optional integer field: absent (undefined or null) or an integer. */
export function optionalInt(value: unknown, field: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  return requireInt(value, field);
}

/**
 * One item of a by-list update (`{id, name?, priority?}` and its extensions) at `body[n]`: the id must be in
 * `catalogue`, a given name must not be empty. Returns the raw item too, for the extension fields.
 */
export function readCatalogueUpdate(
  value: unknown,
  n: number,
  catalogue: ReadonlyMap<number, unknown>,
  what: string,
): {
  at: string;
  item: Record<string, unknown>;
  id: number;
  name: string | undefined;
  priority: number | undefined;
} {
  const at = `body[${n}]`;
  const item = requireObject(value, at);
  const id = requireInt(item['id'], `${at}.id`);
  if (!catalogue.has(id)) throw badParameter(`${at}.id`, `unknown ${what} ${id}`);
  const name = optionalString(item['name'], `${at}.name`);
  if (name === '') throw badParameter(`${at}.name`, 'expected a non-empty string');
  return { at, item, id, name, priority: optionalInt(item['priority'], `${at}.priority`) };
}

/** The integer path parameter `{id}` of the catalogue operations: 400 when it is not an integer. */
export function pathId(ctx: RouteContext): number {
  const raw = ctx.params['id'] ?? '';
  if (!/^\d+$/.test(raw)) throw badParameter('id', `expected an integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/**
 * A change-priority body, `[{id, newPriority}]`: every id in `catalogue` (else 400 `unknown <what> <id>`),
 * all checked before anything changes.
 */
export function priorityChanges(
  body: unknown,
  catalogue: ReadonlyMap<number, unknown>,
  what: string,
): { id: number; priority: number }[] {
  return requireArray(body).map((value, n) => {
    const item = requireObject(value, `body[${n}]`);
    const id = requireInt(item['id'], `body[${n}].id`);
    if (!catalogue.has(id)) throw badParameter(`body[${n}].id`, `unknown ${what} ${id}`);
    return { id, priority: requireInt(item['newPriority'], `body[${n}].newPriority`) };
  });
}
