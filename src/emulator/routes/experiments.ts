// Scenario experiments (path spelled scenario-exeperiments, sic): create (CREATED), list, delete, join (branch
// as a JSON string; CREATED -> RUNNING; STOPPED -> 400; a session keeps its branch), stop, count-sessions.
// count-sessions: without experimentKey, [{key: experiment key, count: joined sessions}] for every experiment;
// with experimentKey, [{key: branch key, count}] for each of its branches (zeros included). Counts use
// project.experimentBranch over sessions visible at the clock, so they equal the `exp_<key>` sessionData keys.
import { ApiError, badParameter } from '../api-error.js';
import { requireArray, requiredString, requireObject, requireText } from '../params.js';
import { hashString, pickIndex } from '../prng.js';
import type { ProjectData } from '../project-data.js';
import { type Route, type RouteContext, readRoute, writeRoute } from '../route.js';
import type { Experiment } from '../state.js';
import { findSession, missing, optionalString } from './labels-lookup.js';

function experimentDto(e: Experiment): Record<string, unknown> {
  return {
    key: e.key,
    ...(e.description === undefined ? {} : { description: e.description }),
    branches: e.branches.map((b) => ({
      key: b.key,
      ...(b.description === undefined ? {} : { description: b.description }),
    })),
    status: e.status,
  };
}

function experimentOrFail(ctx: RouteContext): Experiment {
  const key = requiredString(ctx.query, 'experimentKey');
  const experiment = ctx.project.state.experiments.get(key);
  if (!experiment) throw missing('experimentKey', 'experiment', key);
  return experiment;
}

/** `ScenarioExperimentDto {key, description?, branches: [{key, description?}], status?}`; status is ignored. */
function readExperiment(p: ProjectData, body: unknown): Experiment {
  const o = requireObject(body);
  const key = requireText(o['key'], 'key');
  if (p.state.experiments.has(key))
    throw badParameter('key', `an experiment with key ${JSON.stringify(key)} already exists`);
  const description = optionalString(o['description'], 'description');
  const branches = requireArray(o['branches'], 'branches');
  if (branches.length === 0) throw badParameter('branches', 'an experiment needs at least one branch');
  const seen = new Set<string>();
  const parsed = branches.map((value, n) => {
    const b = requireObject(value, `branches[${n}]`);
    const branchKey = requireText(b['key'], `branches[${n}].key`);
    if (seen.has(branchKey))
      throw badParameter(`branches[${n}].key`, `duplicate branch key ${JSON.stringify(branchKey)}`);
    seen.add(branchKey);
    const branchDescription = optionalString(b['description'], `branches[${n}].description`);
    return { key: branchKey, ...(branchDescription === undefined ? {} : { description: branchDescription }) };
  });
  return {
    key,
    ...(description === undefined ? {} : { description }),
    branches: parsed,
    status: 'CREATED',
    joins: new Map(),
  };
}

/** Joined sessions visible at `now`, per branch key (every branch present, zeros included). */
export function countJoined(p: ProjectData, e: Experiment, now: number): Map<string, number> {
  const counts = new Map<string, number>(e.branches.map((b) => [b.key, 0]));
  const sk = p.skeleton;
  const bump = (i: number): void => {
    if (p.withheld.has(i)) return;
    const branch = p.experimentBranch(e, i);
    if (branch !== undefined) counts.set(branch, (counts.get(branch) ?? 0) + 1);
  };
  // seeded joins only happen to sessions started in [seededFrom, seededTo); explicit joins anywhere
  let lo = 0;
  let hi = 0;
  if (e.seededFrom !== undefined) {
    [lo, hi] = sk.sessionsStartingIn(e.seededFrom, Math.min(now, e.seededTo ?? Number.NEGATIVE_INFINITY));
    for (let i = lo; i < hi; i++) bump(i);
  }
  for (const i of e.joins.keys()) {
    if (i >= lo && i < hi) continue;
    if (i < sk.sessionCount && sk.start.get(i) <= now) bump(i);
  }
  return counts;
}

export function experimentRoutes(): Route[] {
  const routes: Route[] = [
    writeRoute('POST', 'scenario-exeperiments', 'createScenarioExperiment', (ctx) => {
      const experiment = readExperiment(ctx.project, ctx.body);
      ctx.project.state.experiments.set(experiment.key, experiment);
      return experimentDto(experiment);
    }),
    readRoute('GET', 'scenario-exeperiments', 'getScenarioExperiments', (ctx) =>
      [...ctx.project.state.experiments.values()].map(experimentDto),
    ),
    writeRoute('DELETE', 'scenario-exeperiments', 'deleteScenarioExperiment', (ctx) => {
      ctx.project.state.experiments.delete(experimentOrFail(ctx).key);
    }),
    writeRoute('POST', 'scenario-exeperiments/join', 'joinScenarioExperiment', (ctx) => {
      const p = ctx.project;
      const sessionId = requiredString(ctx.query, 'sessionId');
      const botId = requiredString(ctx.query, 'botId');
      const experiment = experimentOrFail(ctx);
      const i = findSession(p, sessionId, ctx.now);
      if (i === undefined) throw missing('sessionId', 'session', sessionId);
      if (p.botIdOf(i) !== botId) throw missing('botId', `bot of session ${sessionId}`, botId);
      if (experiment.status === 'STOPPED') {
        throw new ApiError(
          400,
          'reporter.bad_request.experiment_stopped',
          `experimentKey: experiment ${experiment.key} is stopped`,
          {
            parameter: 'experimentKey',
          },
        );
      }
      let branch = p.experimentBranch(experiment, i);
      if (branch === undefined) {
        // deterministic: the same session always lands in the same branch of the same experiment
        branch =
          experiment.branches[
            pickIndex(experiment.branches.length, p.seed, i, hashString(experiment.key), 92)
          ]!.key;
        experiment.joins.set(i, branch);
      }
      if (experiment.status === 'CREATED') experiment.status = 'RUNNING';
      return branch;
    }),
    writeRoute('POST', 'scenario-exeperiments/stop', 'stopScenarioExperiment', (ctx) => {
      const experiment = experimentOrFail(ctx);
      experiment.status = 'STOPPED';
      // seeded experiments stop taking sessions that start after now; past joins stay
      if (experiment.seededTo !== undefined && experiment.seededTo > ctx.now + 1)
        experiment.seededTo = ctx.now + 1;
    }),
    readRoute('GET', 'scenario-exeperiments/count-sessions', 'countScenarioExperimentSessions', (ctx) => {
      const p = ctx.project;
      if (ctx.query.has('experimentKey')) {
        const experiment = experimentOrFail(ctx);
        return [...countJoined(p, experiment, ctx.now)].map(([key, count]) => ({ key, count }));
      }
      return [...p.state.experiments.values()].map((e) => {
        let count = 0;
        for (const n of countJoined(p, e, ctx.now).values()) count += n;
        return { key: e.key, count };
      });
    }),
  ];
  // experiments exist per project: every operation needs `projectShortName` on v1
  return routes.map((route) => ({ ...route, needsProject: true }));
}
