// Validation of a Reporter API answer at the edge: parses it with a zod schema and turns a mismatch into an
// EtlError naming the operation and the fields at fault. Invariant: nothing unparsed leaves src/reporter/.
import type { z } from 'zod';
import { EtlError } from '../errors.js';
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
