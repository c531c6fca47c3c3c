// Reading query parameters and headers of an emulator request: each reader names the parameter at fault
// in its 400 answer, so a client bug points at the exact field.
import { badParameter } from './api-error.js';
import { parseDateTime } from './filters.js';

export function queryString(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

export function requiredString(query: URLSearchParams, name: string): string {
  const value = queryString(query, name);
  if (value === undefined) throw badParameter(name, 'required parameter is missing');
  return value;
}

export function queryInt(
  query: URLSearchParams,
  name: string,
  options: { default?: number; min?: number; max?: number } = {},
): number | undefined {
  const raw = queryString(query, name);
  if (raw === undefined) return options.default;
  if (!/^-?\d+$/.test(raw)) throw badParameter(name, `expected an integer, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (options.min !== undefined && value < options.min)
    throw badParameter(name, `must be at least ${options.min}`);
  if (options.max !== undefined && value > options.max)
    throw badParameter(name, `must be at most ${options.max}`);
  return value;
}

export function queryBool(query: URLSearchParams, name: string, fallback = false): boolean {
  const raw = queryString(query, name);
  if (raw === undefined) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw badParameter(name, `expected true or false, got ${JSON.stringify(raw)}`);
}

export function queryDateTime(query: URLSearchParams, name: string): number | undefined {
  const raw = queryString(query, name);
  return raw === undefined ? undefined : parseDateTime(raw, name);
}

/** A calendar date `yyyy-MM-dd`, returned as epoch ms of its UTC midnight. */
export function queryDate(query: URLSearchParams, name: string, required: boolean): number | undefined {
  const raw = queryString(query, name);
  if (raw === undefined) {
    if (required) throw badParameter(name, 'required parameter is missing (a date like 2024-05-01)');
    return undefined;
  }
  return parseDate(raw, name);
}

export function parseDate(raw: unknown, name: string): number {
  if (typeof raw !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    throw badParameter(name, `expected a date like 2024-05-01, got ${JSON.stringify(raw)}`);
  }
  const t = Date.parse(`${raw}T00:00:00.000Z`);
  if (Number.isNaN(t)) throw badParameter(name, `not a valid date: ${raw}`);
  return t;
}

export function queryEnum<T extends string>(
  query: URLSearchParams,
  name: string,
  allowed: readonly T[],
  fallback?: T,
): T | undefined {
  const raw = queryString(query, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw badParameter(name, `expected one of ${allowed.join(', ')}, got ${raw}`);
  return raw as T;
}

/** Repeated (`botIds=a&botIds=b`) or comma-separated list parameter. */
export function queryList(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .concat(query.getAll(`${name}[]`))
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

/** The `Timezone` header: an offset in minutes; absent means UTC. */
export function timezoneOffset(header: string | string[] | undefined): number {
  if (header === undefined) return 0;
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined || raw === '') return 0;
  if (!/^[+-]?\d+$/.test(raw.trim()))
    throw badParameter('Timezone', `expected an offset in minutes, got ${JSON.stringify(raw)}`);
  const value = Number(raw.trim());
  if (Math.abs(value) > 18 * 60) throw badParameter('Timezone', 'offset out of range (-1080..1080 minutes)');
  return value;
}

export function requireObject(body: unknown, name = 'body'): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badParameter(name, 'expected a JSON object');
  return body as Record<string, unknown>;
}

export function requireArray(body: unknown, name = 'body'): unknown[] {
  if (!Array.isArray(body)) throw badParameter(name, 'expected a JSON array');
  return body;
}

export function requireInt(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw badParameter(name, `expected an integer, got ${JSON.stringify(value)}`);
  return value;
}

export function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw badParameter(name, 'expected a non-empty string');
  return value;
}
