// The checks of the knowledge base's write requests, before anything changes: segment and group names
// (1 to 100 characters, no comma), source names (with an extension), integration and API key requests.
// Each throws a 400 naming the field; each returns the values the change uses.
import { kbBadRequest } from './kb-error.js';

/** A segment or access group name: 1 to 100 characters, no comma. */
export function checkSegmentName(name: unknown, field: string): string {
  if (typeof name !== 'string' || name.length < 1 || name.length > 100 || name.includes(','))
    throw kbBadRequest(field, 'a segment name is 1 to 100 characters without commas');
  return name;
}

/** A required, non-empty array of segment names. */
export function checkSegmentList(segments: unknown): string[] {
  if (!Array.isArray(segments) || segments.length === 0)
    throw kbBadRequest('segments', 'required: an array of segment names');
  return segments.map((s, n) => checkSegmentName(s, `segments[${n}]`));
}

/** A source name: ends with a file extension, at most 255 characters, no slashes. */
export function checkSourceName(name: string): string {
  if (name.length > 255 || !/\.[A-Za-z0-9]{1,10}$/.test(name) || /[/\\]/.test(name))
    throw kbBadRequest(
      'name',
      'must end with a file extension (e.g. faq.txt), at most 255 characters, no slashes',
    );
  return name;
}

export interface IntegrationRequest {
  name: string;
  autoSync: boolean;
  syncIntervalMinutes: number;
  settings: Record<string, unknown> & { baseUrl: string };
  accessControlAttributes: string[];
}

/** `name` and `settings.baseUrl` required, `syncIntervalMinutes` at least 30 (default 60), autoSync boolean. */
export function checkIntegrationRequest(body: Record<string, unknown>): IntegrationRequest {
  const name = body['name'];
  if (typeof name !== 'string' || name.trim() === '') throw kbBadRequest('name', 'required');
  const settings = body['settings'] as Record<string, unknown> | undefined;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
    throw kbBadRequest('settings', 'required: an object with baseUrl');
  const baseUrl = settings['baseUrl'];
  if (typeof baseUrl !== 'string' || !/^https?:\/\/\S+$/.test(baseUrl))
    throw kbBadRequest('settings.baseUrl', 'required: an http(s) URL');
  const interval = body['syncIntervalMinutes'] ?? 60;
  if (!Number.isInteger(interval) || (interval as number) < 30)
    throw kbBadRequest('syncIntervalMinutes', 'an integer of at least 30');
  const autoSync = body['autoSync'] ?? false;
  if (typeof autoSync !== 'boolean') throw kbBadRequest('autoSync', 'expected true or false');
  const groups = body['accessControlAttributes'] ?? [];
  if (!Array.isArray(groups)) throw kbBadRequest('accessControlAttributes', 'expected an array of names');
  return {
    name,
    autoSync,
    syncIntervalMinutes: interval as number,
    settings: { ...settings, baseUrl },
    accessControlAttributes: groups.map((g, n) => checkSegmentName(g, `accessControlAttributes[${n}]`)),
  };
}

/** An API key request: `name` required; `expiredAt` an ISO date-time in the future, or absent (permanent). */
export function checkApiKeyRequest(
  body: Record<string, unknown>,
  now: number,
): { name: string; expiredAt?: number } {
  const name = body['name'];
  if (typeof name !== 'string' || name.trim() === '') throw kbBadRequest('name', 'required');
  const raw = body['expiredAt'];
  if (raw === undefined || raw === null || raw === '') return { name };
  const expiredAt = typeof raw === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(expiredAt)) throw kbBadRequest('expiredAt', 'expected an ISO 8601 date-time');
  if (expiredAt <= now) throw kbBadRequest('expiredAt', 'must be in the future');
  return { name, expiredAt };
}
