// The previous stored run of the same selection (project, channel, catch-all class), for carry-over: the run
// ending at or before this period's end (not this period's own run), newest first, made by this method (its
// topics have profiles). Its topics (id, id terms, profile) and, for each masked text it put in a topic, that
// topic's id: texts seen again start in their previous topic and carry its id.
import type { Warehouse } from '../../warehouse/warehouse.js';
import type { TopicProfile } from './carry-over-ids.js';
import type { PreviousRun } from './name-topics.js';
import { maskQuestion } from './normalise-question.js';
import { SELECT_PREVIOUS_RUN, SELECT_PREVIOUS_TEXTS, SELECT_PREVIOUS_TOPICS } from './unhandled-sql.js';

/** The selection and period of the run being computed (the names SELECT_PREVIOUS_RUN binds). */
export interface RunSelection {
  run_id: string;
  project: string;
  channel: string;
  class: string;
  to: Date;
}

/** The previous run and its id, or undefined when none is stored. */
export async function readPreviousRun(
  warehouse: Warehouse,
  selection: RunSelection,
): Promise<{ runId: string; run: PreviousRun } | undefined> {
  const { run_id, project, channel, to } = selection;
  const found = await warehouse.query(SELECT_PREVIOUS_RUN, {
    run_id,
    project,
    channel,
    class: selection.class,
    to,
  });
  const runId = found[0]?.['run_id'];
  if (runId === undefined || runId === null) return undefined;
  const topics = (await warehouse.query(SELECT_PREVIOUS_TOPICS, { run_id: String(runId) })).map((r) => ({
    id: String(r['cluster_id']),
    terms: (r['terms'] as string[]).map(String),
    profile: parseProfile(String(r['profile'])),
  }));
  const topicOfText = new Map<string, string>();
  for (const r of await warehouse.query(SELECT_PREVIOUS_TEXTS, { run_id: String(runId) }))
    topicOfText.set(maskQuestion(String(r['question'])), String(r['cluster_id']));
  return { runId: String(runId), run: { topics, topicOfText } };
}

/** A stored profile; one that is not what this code writes counts as empty (no carry-over by profile). */
function parseProfile(json: string): TopicProfile {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (e): e is [string, number, number] =>
        Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number' && typeof e[2] === 'number',
    );
  } catch {
    return [];
  }
}
