// What the platform pushes to our webhooks, as zod reads it: the Chat API's payload (an array of objects:
// token, clientId, questionId, data {nlpClass, confidence, replies, answer, ...}, timestamp without a zone,
// blockForm) and the Prompter's (clientInfo {id}, chatId, questionId, answerOptions [{messages [{type, text,
// markup}], intent {id, confidence, name, path}}]). Unknown members are kept (passthrough): the platform adds
// fields, a bot script adds members to `data`, and message types other than TEXT exist. A string holding a
// lone UTF-16 surrogate (`"\ud800"`: valid JSON, refused by DuckDB's JSON reader) gets U+FFFD in its place.
import { z } from 'zod';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A parsed JSON value with every string (keys too) well-formed: a lone surrogate becomes U+FFFD. */
export function wellFormed(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(LONE_SURROGATE, '\uFFFD');
  if (Array.isArray(value)) return value.map(wellFormed);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [wellFormed(k) as string, wellFormed(v)]),
    );
  return value;
}

const chatApiPayloadObject = z
  .object({
    token: z.string().optional(),
    clientId: z.string().min(1),
    questionId: z.string().min(1),
    data: z
      .object({
        nlpClass: z.string().nullish(),
        confidence: z.number().nullish(),
        answer: z.string().nullish(),
        replies: z.array(z.unknown()).nullish(),
      })
      .passthrough()
      .nullish(),
    timestamp: z.union([z.string().min(1), z.number()]),
    blockForm: z.boolean().nullish(),
  })
  .passthrough();

export const chatApiPayload = z.array(chatApiPayloadObject).min(1, 'expected at least one object');
export type ChatApiPayload = z.infer<typeof chatApiPayload>;

const prompterMessage = z
  .object({ type: z.string().min(1), text: z.string().nullish(), markup: z.string().nullish() })
  .passthrough();

export const prompterPayload = z
  .object({
    clientInfo: z.object({ id: z.string().min(1) }).passthrough(),
    chatId: z.string().min(1),
    questionId: z.string().min(1),
    answerOptions: z.array(
      z
        .object({
          messages: z.array(prompterMessage),
          intent: z
            .object({
              id: z.union([z.number(), z.string()]).nullish(),
              confidence: z.number().nullish(),
              name: z.string().nullish(),
              path: z.string().nullish(),
            })
            .passthrough(),
        })
        .passthrough(),
    ),
  })
  .passthrough();
export type PrompterPayload = z.infer<typeof prompterPayload>;

/** The reason a body does not fit, in one line naming the path of the first problems. */
export function describeProblems(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}
