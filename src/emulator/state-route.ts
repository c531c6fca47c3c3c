// A session's route through the bot's states, as state-routes/filter groups sessions: the NLP states of its
// visible messages in order, a repeated state once, at most five; '/' where a message has none.
import type { ProjectData } from './project-data.js';

export function stateRoute(p: ProjectData, i: number, now: number): string[] {
  const states: string[] = [];
  const visible = p.skeleton.visibleMessageCount(i, now);
  for (let k = 0; k < visible && states.length < 5; k++) {
    const state = p.messageFacts(i, k).nlpState ?? '/';
    if (states[states.length - 1] !== state) states.push(state);
  }
  return states;
}
