// The knowledge base service's client (docs/kb.md): its project key's project, settings, sources,
// integrations and segments; with the administrative key, API keys (metadata only), access groups and
// projects; and retrieval / generation for `kb eval`. Its client is a profile of src/http/ (retries, 429 with
// Retry-After, timeouts), with `Authorization: Bearer <key>` and `{code, description}` errors in messages.
// Invariants: a key is never in a message, a log line or a return value (an API key record's `key` is parsed
// away, also from quarantined raw records); a record that does not fit is returned as a reject, not dropped.
import type { z } from 'zod';
import type { KbConfig } from '../../config.js';
import { EtlError } from '../../errors.js';
import { PLATFORM_ERROR_SHAPES } from '../../http/error-shapes.js';
import type { HttpProfile } from '../../http/http-profile.js';
import { HttpTransport, type HttpTransportOptions } from '../../http/http-transport.js';
import { parseJsonBigIntegers } from '../../text/parse-json-big-integers.js';
import {
  contentPageSchema,
  describeKbIssues,
  integrationsAnswerSchema,
  type KbAccessGroup,
  type KbApiKey,
  type KbChunk,
  type KbHistoryRecord,
  type KbId,
  type KbIntegration,
  type KbProject,
  type KbQueryRecord,
  type KbSegment,
  type KbSettings,
  type KbSource,
  kbAccessGroupSchema,
  kbApiKeySchema,
  kbIntegrationSchema,
  kbProjectSchema,
  kbQueryRecordSchema,
  kbSegmentSchema,
  kbSettingsSchema,
  kbSourceSchema,
  retrieveAnswerSchema,
  segmentsAnswerSchema,
  sourcesAnswerSchema,
} from './kb-schemas.js';

/** Where the operations live under REPORTER_KB_BASE_URL. */
export const KB_API_PATH = '/api/knowledge-hub';
/** The largest page the service gives (pageSize 1..100). */
export const KB_PAGE_SIZE = 100;
/** A synchronous generation may take more than a minute (the contract): its requests wait this long. */
const GENERATION_TIMEOUT_MS = 120_000;

/** A record of an answer that does not fit the contract: quarantined with the reason, never dropped silently. */
export interface KbReject {
  /** The operation it came from, e.g. `sources`, `projects/12/api-keys`. */
  endpoint: string;
  /** Its id when it has one. */
  recordId: string | null;
  reason: string;
  /** The record as received, an API key's `key` value removed. */
  raw: unknown;
}

export interface KbList<T> {
  records: T[];
  rejects: KbReject[];
}

/** The body of a retrieval or generation request (`settings`: the contract's RetrievalSettings / QuerySettings). */
export interface KbQueryRequest {
  query: string;
  history?: readonly KbHistoryRecord[];
  accessSettings?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

export interface KbClient {
  /** The project of the project key (GET /info). */
  info(): Promise<KbProject>;
  settings(projectId: KbId): Promise<KbSettings>;
  /** Every source (not paged); `status` filters by indexing status. */
  sources(filter?: { createdFrom?: string; createdTo?: string; status?: string }): Promise<KbList<KbSource>>;
  source(sourceId: KbId): Promise<KbSource>;
  integrations(): Promise<KbList<KbIntegration>>;
  /** Every segment, all pages. */
  segments(): Promise<KbList<KbSegment>>;
  /** Whether REPORTER_KB_ADMIN_KEY is set (the administrative operations need it). */
  readonly hasAdminKey: boolean;
  /** Admin: the project's API keys, all pages (metadata; never the key value). */
  apiKeys(projectId: KbId): Promise<KbList<KbApiKey>>;
  /** Admin: the account's access groups (those of `projectIds` when given), all pages. */
  accessGroups(projectIds?: readonly KbId[]): Promise<KbList<KbAccessGroup>>;
  /** Admin: the account's projects, all pages. */
  projects(): Promise<KbList<KbProject>>;
  /** Chunks relevant to a query (POST /retrieve). */
  retrieve(request: KbQueryRequest): Promise<KbChunk[]>;
  /** A generated answer, synchronously (POST /query; may take over a minute). */
  generate(request: KbQueryRequest): Promise<KbQueryRecord>;
  /** Starts a generation (POST /async/query); read it with queryStatus. */
  generateAsync(request: KbQueryRequest): Promise<KbQueryRecord>;
  /** A generation's record; `waitTimeSeconds` (0..30) holds the call until it leaves the pending states. */
  queryStatus(queryId: KbId, waitTimeSeconds?: number): Promise<KbQueryRecord>;
  /** Requests sent so far by both keys, retries included. */
  readonly requests: number;
  close(): Promise<void>;
}

/** The knowledge base's settings and the transport's limits (tests shorten the backoff). */
export interface KbClientOptions
  extends Pick<
    HttpTransportOptions,
    'concurrency' | 'timeoutMs' | 'retries' | 'log' | 'backoffBaseMs' | 'backoffCapMs' | 'sleep'
  > {
  config: KbConfig;
}

type KbKeySetting = 'REPORTER_KB_KEY' | 'REPORTER_KB_ADMIN_KEY';

/** The knowledge base service as a profile of the transport, for one of its keys. */
function kbProfile(config: KbConfig, setting: KbKeySetting): HttpProfile {
  const what = setting === 'REPORTER_KB_KEY' ? 'project key' : 'administrative key';
  const prefix = `${config.baseUrl}${KB_API_PATH}`;
  return {
    name: 'knowledge base',
    auth: { kind: 'bearer' },
    secretName: 'key',
    baseUrlSetting: 'REPORTER_KB_BASE_URL',
    urlPrefix: () => prefix,
    // its own shape is {code, description}; {error, message} is read first, as for every interface
    errorShapes: PLATFORM_ERROR_SHAPES,
    authError: (status, detail) =>
      new EtlError(
        'kb.auth',
        `the knowledge base service refused ${setting} (the ${what}) with ${status}${detail}: the key may be wrong, expired or revoked, or not allowed this operation; check ${setting} and REPORTER_KB_BASE_URL (${config.baseUrl})`,
      ),
    codes: {
      notFound: 'kb.not_found',
      badRequest: 'kb.bad_request',
      unavailable: 'kb.unavailable',
      retryAfterTooLong: 'kb.retry_after_too_long',
      requestFailed: 'kb.request_failed',
      unreachable: 'kb.unreachable',
    },
  };
}

function createTransport(options: KbClientOptions, key: string, setting: KbKeySetting): HttpTransport {
  return new HttpTransport({
    baseUrl: options.config.baseUrl,
    secret: key,
    concurrency: options.concurrency ?? 4,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries,
    log: options.log,
    backoffBaseMs: options.backoffBaseMs,
    backoffCapMs: options.backoffCapMs,
    sleep: options.sleep,
    // ids are int64: those beyond 2^53 arrive as the strings of their digits, never rounded (kb-schemas.ts)
    parseJson: parseJsonBigIntegers,
    profile: kbProfile(options.config, setting),
  });
}

/** The record without an API key's secret value (for rejects: their raw JSON is stored). */
function withoutKeyValue(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  if (!('key' in raw)) return raw;
  const { key: _secret, ...rest } = raw as Record<string, unknown>;
  return { ...rest, key: '(removed)' };
}

function recordIdOf(raw: unknown): string | null {
  if (raw === null || typeof raw !== 'object') return null;
  const id = (raw as Record<string, unknown>)['id'] ?? (raw as Record<string, unknown>)['name'];
  return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
}

function splitRecords<T>(endpoint: string, items: readonly unknown[], schema: z.ZodType<T>): KbList<T> {
  const records: T[] = [];
  const rejects: KbReject[] = [];
  for (const raw of items) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) records.push(parsed.data);
    else
      rejects.push({
        endpoint,
        recordId: recordIdOf(raw),
        reason: describeKbIssues(parsed.error),
        raw: withoutKeyValue(raw),
      });
  }
  return { records, rejects };
}

function parseWhole<T extends z.ZodType>(op: string, schema: T, answer: unknown): z.infer<T> {
  const parsed = schema.safeParse(answer);
  if (!parsed.success)
    throw new EtlError(
      'kb.bad_answer',
      `the knowledge base service answered ${op} with a body that does not fit its contract: ${describeKbIssues(parsed.error)}`,
    );
  return parsed.data;
}

/** Every page of a paged list (`pageNum` from 0), its elements parsed one by one. */
async function readAllPages<T>(
  http: HttpTransport,
  op: string,
  field: 'content' | 'segments',
  schema: z.ZodType<T>,
  query: Record<string, string | number | undefined> = {},
): Promise<KbList<T>> {
  const out: KbList<T> = { records: [], rejects: [] };
  for (let pageNum = 0; ; pageNum++) {
    const answer = await http.json({
      method: 'GET',
      op,
      query: { ...query, pageNum, pageSize: KB_PAGE_SIZE },
    });
    const page =
      field === 'segments'
        ? parseWhole(op, segmentsAnswerSchema, answer)
        : parseWhole(op, contentPageSchema, answer);
    const items =
      field === 'segments'
        ? (page as z.infer<typeof segmentsAnswerSchema>).segments
        : (page as z.infer<typeof contentPageSchema>).content;
    const split = splitRecords(op, items, schema);
    out.records.push(...split.records);
    out.rejects.push(...split.rejects);
    const seen = pageNum * Math.max(1, page.paging.pageSize) + items.length;
    if (items.length === 0 || seen >= page.paging.totalCount) return out;
  }
}

/** The project key; kb.not_configured (usage, exit 2) without one: commands check it before anything else. */
export function requireKbKey(config: KbConfig): string {
  if (config.key === undefined)
    throw new EtlError(
      'kb.not_configured',
      'REPORTER_KB_KEY is not set: the knowledge base project key (with REPORTER_KB_BASE_URL, default https://khub.just-ai.com)',
      { kind: 'usage' },
    );
  return config.key;
}

export function createKbClient(options: KbClientOptions): KbClient {
  const { config } = options;
  const key = requireKbKey(config);
  const project = createTransport(options, key, 'REPORTER_KB_KEY');
  const generation = createTransport(
    { ...options, timeoutMs: Math.max(options.timeoutMs ?? 30_000, GENERATION_TIMEOUT_MS) },
    key,
    'REPORTER_KB_KEY',
  );
  const admin =
    config.adminKey === undefined
      ? undefined
      : createTransport(options, config.adminKey, 'REPORTER_KB_ADMIN_KEY');
  const needAdmin = (what: string): HttpTransport => {
    if (!admin)
      throw new EtlError(
        'kb.not_configured',
        `${what} needs the knowledge base administrative key: REPORTER_KB_ADMIN_KEY is not set`,
        { kind: 'usage' },
      );
    return admin;
  };

  return {
    get requests() {
      return project.requests + generation.requests + (admin?.requests ?? 0);
    },
    hasAdminKey: admin !== undefined,
    async info() {
      return parseWhole('info', kbProjectSchema, await project.json({ method: 'GET', op: 'info' }));
    },
    async settings(projectId) {
      const op = `projects/${projectId}/settings`;
      return parseWhole(op, kbSettingsSchema, await project.json({ method: 'GET', op }));
    },
    async sources(filter = {}) {
      const answer = parseWhole(
        'sources',
        sourcesAnswerSchema,
        await project.json({
          method: 'GET',
          op: 'sources',
          query: {
            createDateFrom: filter.createdFrom,
            createDateTo: filter.createdTo,
            sourceStatus: filter.status,
          },
        }),
      );
      return splitRecords('sources', answer.sources, kbSourceSchema);
    },
    async source(sourceId) {
      const op = `sources/${sourceId}`;
      return parseWhole(op, kbSourceSchema, await project.json({ method: 'GET', op }));
    },
    async integrations() {
      const answer = parseWhole(
        'integrations',
        integrationsAnswerSchema,
        await project.json({ method: 'GET', op: 'integrations' }),
      );
      return splitRecords('integrations', answer.integrations, kbIntegrationSchema);
    },
    segments: () => readAllPages(project, 'segments', 'segments', kbSegmentSchema),
    apiKeys: async (projectId) =>
      readAllPages(needAdmin('the API keys'), `projects/${projectId}/api-keys`, 'content', kbApiKeySchema),
    accessGroups: async (projectIds) =>
      readAllPages(
        needAdmin('the access groups'),
        'access-groups',
        'content',
        kbAccessGroupSchema,
        projectIds && projectIds.length > 0 ? { projectIds: projectIds.join(',') } : {},
      ),
    projects: async () =>
      readAllPages(needAdmin('the list of projects'), 'projects', 'content', kbProjectSchema),
    async retrieve(request) {
      const answer = await project.json({ method: 'POST', read: true, op: 'retrieve', body: request });
      return parseWhole('retrieve', retrieveAnswerSchema, answer).chunks;
    },
    async generate(request) {
      const answer = await generation.json({ method: 'POST', read: true, op: 'query', body: request });
      return parseWhole('query', kbQueryRecordSchema, answer);
    },
    async generateAsync(request) {
      const answer = await project.json({ method: 'POST', read: true, op: 'async/query', body: request });
      return parseWhole('async/query', kbQueryRecordSchema, answer);
    },
    async queryStatus(queryId, waitTimeSeconds) {
      const op = `query/${queryId}`;
      const answer = await generation.json({
        method: 'GET',
        op,
        query: { waitTimeSeconds },
      });
      return parseWhole(op, kbQueryRecordSchema, answer);
    },
    async close() {
      await Promise.all([project.close(), generation.close(), admin?.close()]);
    },
  };
}
