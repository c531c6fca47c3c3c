// The knowledge base service's wire shapes (docs/kb.md; the contract: field names of the vendor's document,
// paths and states decided in docs/kb.md#the-contract), parsed with zod at the edge. Records are lenient where
// the contract is open: a status is any non-empty string (an unknown value is kept as it is, not rejected),
// optional fields may be null or absent; what a record cannot be stored without (its id, its name, a date
// that is not a date) makes it invalid, and the sync quarantines it in etl_rejects with the reason.
import { z } from 'zod';

/** An int64 id exactly: a safe integer is a number, a larger one a bigint (never a rounded number). */
export type KbId = number | bigint;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/**
 * An int64 id. The client's JSON parser (parse-json-big-integers.ts) hands an integer of 16 digits or more
 * over as the string of its digits, so the exact value survives; a safe one becomes a number again.
 */
const longId = z
  .union([z.number().int().safe(), z.string().regex(/^-?\d{1,19}$/, 'expected an integer id')])
  .transform((value, ctx): KbId => {
    if (typeof value === 'number') return value;
    const big = BigInt(value);
    if (big < INT64_MIN || big > INT64_MAX) {
      ctx.addIssue({ code: 'custom', message: `not an int64 id: ${value}` });
      return z.NEVER;
    }
    return Number.isSafeInteger(Number(big)) ? Number(big) : big;
  });
/** An ISO 8601 date-time that Date.parse reads. */
const dateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 date-time');
/** A date-time that may be absent, null or empty (an API key without expiry has an empty `expiredAt`). */
const optionalDateTime = z.union([z.literal(''), dateTime]).nullish();
const status = z.string().min(1);
const strings = z.array(z.string()).nullish();

export const kbProjectSchema = z
  .object({
    id: longId,
    name: z.string(),
    status: status.nullish(),
    resources: z.object({ llmModels: strings }).passthrough().nullish(),
    createdAt: optionalDateTime,
    updatedAt: optionalDateTime,
    indexingPriority: z.number().int().nullish(),
    indexingRetryCount: z.number().int().nullish(),
  })
  .passthrough();
export type KbProject = z.infer<typeof kbProjectSchema>;

/** Project settings: the three objects are required; their members are kept as they come (JSON). */
export const kbSettingsSchema = z
  .object({
    indexing: z.record(z.string(), z.unknown()),
    search: z.record(z.string(), z.unknown()),
    generation: z.record(z.string(), z.unknown()),
  })
  .passthrough();
export type KbSettings = z.infer<typeof kbSettingsSchema>;

export const kbSourceSchema = z
  .object({
    id: longId,
    name: z.string().min(1),
    segments: strings,
    status,
    lastError: z.string().nullish(),
    version: z.union([z.string(), z.number()]).nullish(),
    sizeBytes: z.number().int().min(0).nullish(),
    sizeChars: z.number().int().min(0).nullish(),
    createdAt: optionalDateTime,
    type: z.string().nullish(),
    accessControlAttributes: strings,
    hash: z.string().nullish(),
  })
  .passthrough();
export type KbSource = z.infer<typeof kbSourceSchema>;

export const kbIntegrationSchema = z
  .object({
    id: longId,
    name: z.string(),
    autoSync: z.boolean().nullish(),
    syncIntervalMinutes: z.number().int().min(0).nullish(),
    settings: z.object({ baseUrl: z.string().nullish() }).passthrough().nullish(),
    status,
    lastError: z.string().nullish(),
    accessControlAttributes: strings,
    lastSuccessfulSyncAt: optionalDateTime,
  })
  .passthrough();
export type KbIntegration = z.infer<typeof kbIntegrationSchema>;

export const kbSegmentSchema = z
  .object({ name: z.string().min(1), sourcesCount: z.number().int().min(0) })
  .passthrough();
export type KbSegment = z.infer<typeof kbSegmentSchema>;

/** An API key's metadata. Its `key` (the secret value) is parsed away: nothing downstream ever holds it. */
export const kbApiKeySchema = z
  .object({
    id: longId,
    projectId: longId.nullish(),
    name: z.string(),
    status,
    ownerLogin: z.string().nullish(),
    createdAt: optionalDateTime,
    updatedAt: optionalDateTime,
    expiredAt: optionalDateTime,
    lastUsedAt: optionalDateTime,
  })
  .strip();
export type KbApiKey = z.infer<typeof kbApiKeySchema>;

export const kbAccessGroupSchema = z
  .object({
    id: longId,
    name: z.string(),
    filesCount: z.number().int().min(0).nullish(),
    integrationsCount: z.number().int().min(0).nullish(),
    audit: z
      .object({
        createdAt: optionalDateTime,
        updatedAt: optionalDateTime,
        createdBy: longId.nullish(),
        updatedBy: longId.nullish(),
      })
      .passthrough()
      .nullish(),
  })
  .passthrough();
export type KbAccessGroup = z.infer<typeof kbAccessGroupSchema>;

export const kbPagingSchema = z
  .object({ totalCount: z.number().int().min(0), pageNum: z.number().int(), pageSize: z.number().int() })
  .passthrough();

/** The outer shapes: the lists are arrays of anything, their elements parsed one by one. */
export const sourcesAnswerSchema = z.object({ sources: z.array(z.unknown()) }).passthrough();
export const integrationsAnswerSchema = z.object({ integrations: z.array(z.unknown()) }).passthrough();
export const segmentsAnswerSchema = z
  .object({ segments: z.array(z.unknown()), paging: kbPagingSchema })
  .passthrough();
export const contentPageSchema = z
  .object({ content: z.array(z.unknown()), paging: kbPagingSchema })
  .passthrough();

/** A history record of a generation request (latest first). */
export interface KbHistoryRecord {
  content: string;
  role: string;
}

export const kbSourceRefSchema = z
  .object({
    id: longId.nullish(),
    title: z.string().nullish(),
    sourceType: z.string().nullish(),
    path: z.string().nullish(),
    externalLink: z.string().nullish(),
  })
  .passthrough();

export const kbChunkSchema = z
  .object({
    score: z.number().nullish(),
    content: z.string(),
    docId: z.string().nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    source: kbSourceRefSchema.nullish(),
  })
  .passthrough();
export type KbChunk = z.infer<typeof kbChunkSchema>;
export const retrieveAnswerSchema = z.object({ chunks: z.array(kbChunkSchema) }).passthrough();

/** A generation request's record; `status` kept as it comes (READY_TO_PROCESS ... CANCELED, or another). */
export const kbQueryRecordSchema = z
  .object({
    id: longId,
    chatId: longId.nullish(),
    request: z.string().nullish(),
    response: z.string().nullish(),
    status,
    createdAt: optionalDateTime,
    updatedAt: optionalDateTime,
    comment: z.string().nullish(),
    relevantSources: z.array(kbSourceRefSchema).nullish(),
  })
  .passthrough();
export type KbQueryRecord = z.infer<typeof kbQueryRecordSchema>;

/** The query statuses after which a generation request changes no more. */
export const KB_FINAL_QUERY_STATUSES: readonly string[] = ['FINISHED', 'FAILED', 'CANCELED'];

/** A zod error in one line: `field: message; field: message`. */
export function describeKbIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || '(record)'}: ${i.message}`).join('; ');
}
