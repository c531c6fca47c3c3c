// The writer's check of what a reader sends over the read socket (read-service.ts): only the message types and
// read operations of read-service-protocol.ts / read-request.ts, with fields of the types they declare, are
// run; anything else (an unknown type or op, a malformed field) is answered with an error, never thrown.
import { z } from 'zod';
import type { ReaderMessage } from './read-service-protocol.js';

const param = z.union([z.string(), z.number(), z.boolean(), z.null(), z.date(), z.array(z.string())]);
const params = z.union([z.array(param), z.record(z.string(), param)]).optional();

const readRequest = z.discriminatedUnion('op', [
  z.object({ op: z.literal('query'), sql: z.string(), params }),
  z.object({ op: z.literal('parquet'), sql: z.string() }),
  z.object({
    op: z.literal('listRuns'),
    options: z.object({
      project: z.string().optional(),
      job: z.string().optional(),
      limit: z.number().int().nonnegative(),
    }),
  }),
  z.object({ op: z.literal('countRejects'), runId: z.string() }),
  z.object({ op: z.literal('getWatermark'), project: z.string() }),
  z.object({
    op: z.literal('latestStatuses'),
    project: z.string(),
    sessionIds: z.array(z.string()),
    between: z.object({ from: z.number(), to: z.number() }).optional(),
  }),
]);

const readerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('read'), request: readRequest }),
  z.object({ type: z.literal('stream'), sql: z.string(), params }),
  z.object({ type: z.literal('begin') }),
  z.object({ type: z.literal('end') }),
]);

export type ParsedReaderMessage = { ok: true; message: ReaderMessage } | { ok: false; reason: string };

/** The message as the writer may run it, or why it is not one. */
export function parseReaderMessage(received: unknown): ParsedReaderMessage {
  const parsed = readerMessage.safeParse(received);
  if (parsed.success) return { ok: true, message: parsed.data as ReaderMessage };
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, reason: `${issue?.message ?? 'not a message'}${where}` };
}
