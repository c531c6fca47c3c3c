// zod wire schemas of the report operations: AsyncTaskDto, ReportGenerationTaskDto (with progress and file),
// AsyncResponseDto events and the task list. Invariant: an answer that does not fit is an EtlError naming
// the operation and the field, never a silent undefined; unknown extra fields are tolerated.
import { z } from 'zod';
import { EtlError } from '../errors.js';
import { dateTime } from '../platform/reporter/schemas.js';

const count = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).nullish();

export const reportTaskSchema = z.object({
  // a string in the vendor's document; a number beyond 2^53 was rounded by JSON.parse: refused, not misread
  taskId: z
    .union([
      z.string().min(1),
      z
        .number()
        .refine((n) => Math.abs(n) <= Number.MAX_SAFE_INTEGER, 'a numeric id beyond 2^53 lost digits'),
    ])
    .transform(String),
  accountId: z.number().nullish(),
  creationTime: dateTime.nullish(),
  status: z.string().min(1),
  reportType: z.string().nullish(),
  settings: z
    .object({
      fileType: z.string().nullish(),
      withHeader: z.boolean().nullish(),
      delimiter: z.string().nullish(),
    })
    .loose()
    .nullish(),
  projectShortName: z.string().nullish(),
  writeCount: count,
  totalCount: count,
  fileUrl: z.string().nullish(),
  fileName: z.string().nullish(),
});
export type ReportTaskDto = z.infer<typeof reportTaskSchema>;

export const asyncTaskSchema = z.object({ requestId: z.string().min(1), requestTime: dateTime.nullish() });

const errorDto = z.object({ error: z.string().nullish(), message: z.string().nullish() }).loose();

export const asyncEventSchema = z.object({
  isOk: z.boolean(),
  requestId: z.string(),
  requestTime: dateTime.nullish(),
  responseTime: dateTime,
  payload: z.unknown().optional(),
  error: errorDto.nullish(),
});
export type AsyncEvent = z.infer<typeof asyncEventSchema>;

export const eventsAnswerSchema = z.object({ response: z.array(z.unknown()) });

export const taskListSchema = z.object({ tasks: z.array(reportTaskSchema) });

/** Parses an answer; a mismatch names the operation and the field path. */
export function parseAnswer<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : '(the answer)';
  throw new EtlError(
    'platform_report.bad_answer',
    `${what} answered something unexpected at ${path}: ${issue?.message ?? 'invalid'}`,
  );
}
