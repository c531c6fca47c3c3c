// Scenario experiments (the API spells the path `scenario-exeperiments`): create, list, stop, delete,
// and count joined sessions (per experiment, or per branch of one). v1 needs projectShortName on
// every one of these operations: the client must have its project set.
import { z } from 'zod';
import { parseAnswer, parseCreated } from './parse-answer.js';
import type { ReporterHttp } from './reporter-http.js';
import { experiment, experimentCount } from './schemas.js';

export type Experiment = z.infer<typeof experiment>;
export type ExperimentCount = z.infer<typeof experimentCount>;

/** `ScenarioExperimentDto` as sent: the platform sets the status (CREATED). */
export interface NewExperiment {
  key: string;
  description?: string;
  branches: { key: string; description?: string }[];
}

const PATH = 'scenario-exeperiments';

export async function createExperiment(http: ReporterHttp, request: NewExperiment): Promise<Experiment> {
  const answer = await http.write({ method: 'POST', op: PATH, body: request });
  return parseCreated(PATH, experiment, answer, 'look it up with `experiments list`');
}

export async function readExperiments(http: ReporterHttp): Promise<Experiment[]> {
  const answer = await http.json({ method: 'GET', op: PATH });
  return parseAnswer(PATH, z.array(experiment), answer ?? []);
}

export async function deleteExperiment(http: ReporterHttp, experimentKey: string): Promise<void> {
  await http.json({ method: 'DELETE', op: PATH, query: { experimentKey } });
}

export async function stopExperiment(http: ReporterHttp, experimentKey: string): Promise<void> {
  await http.json({ method: 'POST', op: `${PATH}/stop`, query: { experimentKey } });
}

/**
 * Joined sessions: without a key, `{key: experiment key, count}` per experiment; with one, `{key: branch
 * key, count}` per branch of that experiment.
 */
export async function countExperimentSessions(
  http: ReporterHttp,
  experimentKey?: string,
): Promise<ExperimentCount[]> {
  const op = `${PATH}/count-sessions`;
  const answer = await http.json({
    method: 'GET',
    op,
    ...(experimentKey === undefined ? {} : { query: { experimentKey } }),
  });
  return parseAnswer(op, z.array(experimentCount), answer ?? []);
}
