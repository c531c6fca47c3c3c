// Validation of a Reporter API answer at the edge: parses it with a zod schema and turns a mismatch into an
// EtlError naming the operation and the fields at fault. Invariant: nothing unparsed leaves src/platform/reporter/.
import type { z } from 'zod';
import { EtlError } from '../../errors.js';
import type { HttpAnswer } from '../../http/answer-body.js';
import { describeZodError } from './schemas.js';

export function parseAnswer<T extends z.ZodType>(op: string, schema: T, answer: unknown): z.infer<T> {
  const parsed = schema.safeParse(answer);
  if (!parsed.success)
    throw new EtlError(
      'reporter.invalid_answer',
      `${op}: the Reporter API answered something unexpected (${describeZodError(parsed.error)})`,
    );
  return parsed.data;
}

/**
 * The answer of a create (a label, an experiment) parsed; one that could not be read is an error that says
 * the thing was created all the same (it was not sent again), so nobody creates it twice.
 */
export function parseCreated<T extends z.ZodType>(
  op: string,
  schema: T,
  answer: HttpAnswer,
  lookUp: string,
): z.infer<T> {
  if (answer.unreadable !== undefined)
    throw new EtlError(
      'reporter.invalid_answer',
      `${answer.unreadable}: it was created, but its id is unknown; ${lookUp} before creating it again`,
    );
  return parseAnswer(op, schema, answer.value);
}
