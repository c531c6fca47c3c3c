// The projects a token reads, with their session counts (projects/sessions/count): how a v1 token that spans
// several projects tells which ones it may read.
import { z } from 'zod';
import { parseAnswer } from './parse-answer.js';
import type { ReporterHttp } from './reporter-http.js';

const projectCount = z.object({
  projectShortName: z.string().min(1),
  amount: z.number().int().nonnegative(),
});
export type ProjectSessionCount = z.infer<typeof projectCount>;

export async function countProjectSessions(http: ReporterHttp): Promise<ProjectSessionCount[]> {
  const op = 'projects/sessions/count';
  const answer = await http.json({ method: 'GET', op, withProject: false });
  return parseAnswer(op, z.array(projectCount), answer ?? []);
}
