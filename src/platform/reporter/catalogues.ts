// Catalogue reads of the Reporter API: session labels, message labels with their groups, experiments and
// their joined-session counts. Small lists, read once per sync run.
import { z } from 'zod';
import { EtlError } from '../../errors.js';
import type { ReporterHttp } from './reporter-http.js';
import { describeZodError, experiment, experimentCount, messageLabel, sessionLabel } from './schemas.js';

async function list<T extends z.ZodType>(
  http: ReporterHttp,
  op: string,
  schema: T,
  query?: Record<string, string>,
): Promise<z.infer<T>[]> {
  const answer = await http.json({ method: 'GET', op, ...(query ? { query } : {}) });
  const parsed = z.array(schema).safeParse(answer ?? []);
  if (!parsed.success)
    throw new EtlError(
      'reporter.invalid_answer',
      `${op}: the Reporter API answered something unexpected (${describeZodError(parsed.error)})`,
    );
  return parsed.data;
}

export const listSessionLabels = (http: ReporterHttp) => list(http, 'logs/labels/sessions', sessionLabel);
export const listMessageLabels = (http: ReporterHttp) => list(http, 'message/labels', messageLabel);
export const listExperiments = (http: ReporterHttp) => list(http, 'scenario-exeperiments', experiment);
export const countExperimentSessions = (http: ReporterHttp) =>
  list(http, 'scenario-exeperiments/count-sessions', experimentCount);
