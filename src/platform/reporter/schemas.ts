// zod wire schemas of the Reporter API records the sync reads. Validation happens per record so a bad
// record is rejected alone; unknown extra fields are tolerated (and dropped). Date-times become epoch ms.
import { z } from 'zod';

/** yyyy-MM-ddTHH:mm:ss.SSSZ, also with other offsets or without milliseconds (fast-parse.ts shares it). */
export const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export const dateTime = z
  .string()
  .regex(DATE_TIME_PATTERN, 'expected an ISO date-time with a zone')
  .transform((value, ctx) => {
    const t = Date.parse(value);
    if (Number.isNaN(t)) {
      ctx.addIssue({ code: 'custom', message: `not a valid date-time: ${value}` });
      return z.NEVER;
    }
    return t;
  });

const optionalText = z.string().nullish();
/**
 * A client's or agent's id: a string in the vendor's document; a number is taken as its text, but not one
 * beyond 2^53, which JSON.parse has already rounded (the record is quarantined rather than stored wrong).
 */
const id = z
  .union([
    z.string().min(1),
    z.number().refine((n) => Math.abs(n) <= Number.MAX_SAFE_INTEGER, 'a numeric id beyond 2^53 lost digits'),
  ])
  .transform(String);

export const paging = z.object({
  pageNum: z.number().int(),
  pageSize: z.number().int(),
  totalCount: z.number().int().nonnegative(),
});

export const sessionLabel = z.object({
  id: z.number().int(),
  name: z.string(),
  priority: z.number().int().nullish(),
});

export const messageLabel = z.object({
  id: z.number().int(),
  name: z.string(),
  priority: z.number().int().nullish(),
  group: z
    .object({ id: z.number().int().nullish(), name: z.string(), priority: z.number().int().nullish() })
    .nullish(),
});

export const clientInfo = z.object({
  id,
  firstName: optionalText,
  lastName: optionalText,
  username: optionalText,
});

export const sessionInfo = z.object({
  sessionId: z.string().min(1),
  projectShortName: z.string(),
  channelType: z.string().min(1),
  botId: z.string(),
  client: clientInfo,
  startTime: dateTime,
  isLivechat: z.boolean().default(false),
  firstQuestion: optionalText,
  lastQuestion: optionalText,
  questionCount: z.number().int().nonnegative().nullish(),
  duration: z.number().nonnegative().nullish(),
  callTaskId: z.number().int().nullish(),
  isCallIncoming: z.boolean().nullish(),
  sessionResult: optionalText,
  sessionData: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]).transform(String))
    .nullish(),
  labels: z.array(sessionLabel).nullish(),
});
export type SessionInfo = z.infer<typeof sessionInfo>;

const reply = z.object({ type: z.string().optional() }).loose();

const messageCommon = {
  timestamp: dateTime,
  questionId: z.string().min(1),
  isLivechat: z.boolean().default(false),
  question: optionalText,
  textAnswer: optionalText,
  event: optionalText,
  operatorInfo: z.object({ id }).loose().nullish(),
  nlpInfo: z
    .object({ nlpClass: optionalText, nlpState: optionalText, confidence: z.number().nullish() })
    .loose()
    .nullish(),
  responseData: z
    .object({ replies: z.array(reply).nullish() })
    .loose()
    .nullish(),
  exception: optionalText,
  processingTime: z.number().int().nullish(),
  labels: z.array(messageLabel).nullish(),
  comment: optionalText,
};

/**
 * The delivery statuses the vendor documents. The field stays open: a status the platform adds later is kept
 * as given (the sync counts it as unknown, src/platform/reporter/unknown-values.ts), never a reason to quarantine a record.
 */
export const MESSAGE_STATUSES = ['SENT', 'DELIVERED', 'READ', 'NOT_SENT', 'NOT_DELIVERED'] as const;
/** The Chat API's documented message statuses (spec/chat-api.yaml ChatStatus): it has no NOT_DELIVERED. */
export const CHATAPI_MESSAGE_STATUSES = ['SENT', 'DELIVERED', 'READ', 'NOT_SENT'] as const;
/** The statuses of an experiment the vendor documents (ScenarioExperimentStatus); the field is open too. */
export const EXPERIMENT_STATUSES = ['CREATED', 'RUNNING', 'STOPPED'] as const;

/** A delivery status: one of MESSAGE_STATUSES or one added later, any non-empty text. */
const deliveryStatus = z.string().min(1);

/** Message of messages/by-session and by-client: carries the delivery status. */
export const message = z.object({
  ...messageCommon,
  sessionId: z.string().min(1).nullish(),
  status: deliveryStatus.nullish(),
});
export type Message = z.infer<typeof message>;

/**
 * The part of a messages/by-session record the sync reads: its id and delivery status (the rest of the
 * message comes from messages/filter, so only these two fields are validated here).
 */
export const messageStatus = z.object({
  questionId: z.string().min(1),
  status: deliveryStatus.nullish(),
});
export type MessageStatus = z.infer<typeof messageStatus>;

/** ExtendedMessage of messages/filter: the session context, no status. */
export const extendedMessage = z.object({
  ...messageCommon,
  sessionId: z.string().min(1),
  projectShortName: z.string(),
  channelType: z.string().min(1),
  botId: z.string(),
  client: clientInfo,
  sessionStartTime: dateTime,
});
export type ExtendedMessage = z.infer<typeof extendedMessage>;

export const clientExtendedInfo = z.object({
  id,
  firstName: optionalText,
  lastName: optionalText,
  username: optionalText,
  projectShortName: z.string().nullish(),
  channelType: optionalText,
  botId: optionalText,
  lastSessionId: optionalText,
  joinDate: dateTime.nullish(),
  lastVisitDate: dateTime.nullish(),
  isBlocked: z.boolean().default(false),
  blockReason: optionalText,
  blockedBy: z.number().int().nullish(),
  blockDate: dateTime.nullish(),
});
export type ClientExtendedInfo = z.infer<typeof clientExtendedInfo>;

export const messageLabelGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  priority: z.number().int().nullish(),
});

export const experiment = z.object({
  key: z.string().min(1),
  description: optionalText,
  branches: z.array(z.object({ key: z.string(), description: optionalText })).default([]),
  status: optionalText,
});
export const experimentCount = z.object({ key: z.string(), count: z.number().int().nonnegative() });

/** Reads the issues of a failed parse as one line naming the fields. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.map(String).join('.') || '(record)'}: ${i.message}`).join('; ');
}
