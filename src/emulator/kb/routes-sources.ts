// Sources: list (created-date range and status at the clock, `{sources}` not paged), get, and add (POST)
// or replace (PUT) by link, text or multipart file. Indexing starts at the request's clock time.
import { kbBadRequest } from './kb-error.js';
import { sourceWire } from './kb-model.js';
import { idParam, type KbContext, type KbRoute } from './kb-router.js';
import type { NewSource } from './kb-service.js';
import { formValues } from './multipart.js';
import { indexingStatusAt, SOURCE_STATUSES } from './source-indexing.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateParam(ctx: KbContext, name: string, endOfDay: boolean): number | undefined {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return undefined;
  const t = DATE.test(raw) ? Date.parse(`${raw}T00:00:00.000Z`) : Number.NaN;
  if (Number.isNaN(t)) throw kbBadRequest(name, `expected a date yyyy-MM-dd, got ${JSON.stringify(raw)}`);
  return endOfDay ? t + 86_400_000 - 1 : t;
}

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw kbBadRequest(field, 'expected an array of strings');
  return value;
}

/** segments, plus the deprecated single `segment`. */
function segmentsOf(segments: string[] | undefined, segment: unknown): string[] | undefined {
  if (segment !== undefined && segment !== null && typeof segment !== 'string')
    throw kbBadRequest('segment', 'expected a string');
  if (typeof segment === 'string' && segment !== '') return [...(segments ?? []), segment];
  return segments;
}

function jsonSource(ctx: KbContext, kind: 'link' | 'text'): NewSource {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw kbBadRequest('body', `expected a JSON object with ${kind}`);
  const b = body as Record<string, unknown>;
  if (b['name'] !== undefined && typeof b['name'] !== 'string')
    throw kbBadRequest('name', 'expected a string');
  const common = {
    ...(typeof b['name'] === 'string' ? { name: b['name'] } : {}),
    ...optional('segments', segmentsOf(stringList(b['segments'], 'segments'), b['segment'])),
    ...optional(
      'accessControlAttributes',
      stringList(b['accessControlAttributes'], 'accessControlAttributes'),
    ),
  };
  if (kind === 'link') {
    const link = b['link'];
    if (typeof link !== 'string' || !/^https?:\/\/[^\s/]+/.test(link))
      throw kbBadRequest('link', 'required: an http(s) URL');
    // the emulator "downloads" a page whose text is the words of its address
    const words = new URL(link).pathname
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .join(' ');
    return { type: 'LINK', link, text: `Page ${link}: ${words}.`, ...common };
  }
  const text = b['text'];
  if (typeof text !== 'string' || text === '') throw kbBadRequest('text', 'required: a non-empty string');
  return { type: 'TEXT', text, ...common };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

function fileSource(ctx: KbContext): NewSource {
  if (!ctx.form) throw kbBadRequest('body', 'expected multipart/form-data with a file field');
  const file = ctx.form.parts.find((p) => p.name === 'file' && p.filename !== undefined);
  if (!file) throw kbBadRequest('file', 'required: the uploaded file');
  const name = formValues(ctx.form, 'name')?.[0] ?? (file.filename || undefined);
  return {
    type: 'FILE',
    text: file.data.toString('utf8'),
    content: Buffer.from(file.data),
    ...(name === undefined ? {} : { name }),
    ...optional(
      'segments',
      segmentsOf(formValues(ctx.form, 'segments'), formValues(ctx.form, 'segment')?.[0]),
    ),
    ...optional('accessControlAttributes', formValues(ctx.form, 'accessControlAttributes')),
  };
}

function upload(method: 'POST' | 'PUT', kind: 'links' | 'texts' | 'files'): KbRoute {
  const verb = method === 'POST' ? 'add' : 'replace';
  return {
    method,
    path: `sources/${kind}`,
    op: `${verb}Source${kind[0]!.toUpperCase()}${kind.slice(1, -1)}`,
    access: 'project',
    handler(ctx) {
      const input = kind === 'files' ? fileSource(ctx) : jsonSource(ctx, kind === 'links' ? 'link' : 'text');
      const source =
        method === 'POST'
          ? ctx.kb.addSource(ctx.projectId!, input, ctx.now)
          : ctx.kb.replaceSource(ctx.projectId!, input, ctx.now);
      return { body: sourceWire(source, ctx.now) };
    },
  };
}

export function sourceRoutes(): KbRoute[] {
  return [
    {
      method: 'GET',
      path: 'sources',
      op: 'listSources',
      access: 'project',
      handler(ctx) {
        const from = dateParam(ctx, 'createDateFrom', false);
        const to = dateParam(ctx, 'createDateTo', true);
        const status = ctx.query.get('sourceStatus') || undefined;
        if (status !== undefined && !(SOURCE_STATUSES as readonly string[]).includes(status))
          throw kbBadRequest('sourceStatus', `expected one of ${SOURCE_STATUSES.join(', ')}`);
        const sources = ctx.kb
          .sourcesOf(ctx.projectId!)
          .filter(
            (s) => (from === undefined || s.createdAt >= from) && (to === undefined || s.createdAt <= to),
          )
          .filter((s) => status === undefined || indexingStatusAt(s.indexing, ctx.now) === status);
        return { body: { sources: sources.map((s) => sourceWire(s, ctx.now)) } };
      },
    },
    {
      method: 'GET',
      path: 'sources/{sourceId}',
      op: 'getSource',
      access: 'project',
      handler(ctx) {
        return { body: sourceWire(ctx.kb.source(ctx.projectId!, idParam(ctx, 'sourceId')), ctx.now) };
      },
    },
    upload('POST', 'links'),
    upload('PUT', 'links'),
    upload('POST', 'texts'),
    upload('PUT', 'texts'),
    upload('POST', 'files'),
    upload('PUT', 'files'),
  ];
}
