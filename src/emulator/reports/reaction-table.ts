// Message reactions (like / dislike) for message-reaction reports: a deterministic ~5% of messages get one,
// derived by hash from (seed, session, message), some time after the message. Invariant: a reaction is
// visible only once its time is at or before the clock; all time bounds are inclusive epoch ms.

import { pickIndex, unit } from '../prng.js';
import type { ProjectData } from '../project-data.js';
import { MAX_SESSION_MS } from '../skeleton.js';
import { dateTimeColumn, lazyTable, type ReportTable, rowOf, textColumn } from './report-table.js';

export const REACTION_SHARE = 0.05;
const MAX_REACTION_DELAY_MS = 6 * 3_600_000;

export interface Reaction {
  reaction: 'like' | 'dislike';
  at: number;
}

export interface ReactionQuery {
  botId: string;
  messageId?: string;
  clientId?: string;
  sessionId?: string;
  messageTimeFrom?: number;
  messageTimeTo?: number;
  reactionTimeFrom?: number;
  reactionTimeTo?: number;
}

/** The reaction a client gives message k of session i, if any (regardless of the clock). */
export function reactionOf(p: ProjectData, i: number, k: number): Reaction | undefined {
  if (unit(p.seed, i, k, 700) >= REACTION_SHARE) return undefined;
  return {
    reaction: unit(p.seed, i, k, 701) < 0.7 ? 'like' : 'dislike',
    at: p.skeleton.messageTime(i, k) + 5_000 + pickIndex(MAX_REACTION_DELAY_MS, p.seed, i, k, 702),
  };
}

interface Row {
  i: number;
  k: number;
  reaction: Reaction;
}

const inRange = (t: number, from: number | undefined, to: number | undefined): boolean =>
  (from === undefined || t >= from) && (to === undefined || t <= to);

/** Reactions matching the query as of `now`, newest reaction first. */
export function selectReactions(p: ProjectData, q: ReactionQuery, now: number): Row[] {
  const sk = p.skeleton;
  let [lo, hi] = sk.sessionsStartingIn(
    Math.max(
      q.messageTimeFrom ?? Number.NEGATIVE_INFINITY,
      (q.reactionTimeFrom ?? Number.NEGATIVE_INFINITY) - MAX_REACTION_DELAY_MS - 5_000,
    ) - MAX_SESSION_MS,
    Math.min(q.messageTimeTo ?? now, q.reactionTimeTo ?? now, now),
  );
  const message = q.messageId === undefined ? undefined : p.messageIndex(q.messageId);
  if (q.messageId !== undefined && !message) return [];
  const session = q.sessionId === undefined ? message?.i : p.sessionIndex(q.sessionId);
  if (q.sessionId !== undefined && (session === undefined || (message && message.i !== session))) return [];
  if (session !== undefined) [lo, hi] = session >= lo && session < hi ? [session, session + 1] : [0, 0];
  const out: Row[] = [];
  for (let i = lo; i < hi; i++) {
    if (p.withheld.has(i) || p.botIdOf(i) !== q.botId) continue;
    if (q.clientId !== undefined && p.clientId(sk.client.get(i)) !== q.clientId) continue;
    const visible = sk.visibleMessageCount(i, now);
    for (let k = 0; k < visible; k++) {
      if (message && message.k !== k) continue;
      if (!inRange(sk.messageTime(i, k), q.messageTimeFrom, q.messageTimeTo)) continue;
      const reaction = reactionOf(p, i, k);
      if (!reaction || reaction.at > now || !inRange(reaction.at, q.reactionTimeFrom, q.reactionTimeTo))
        continue;
      out.push({ i, k, reaction });
    }
  }
  return out.sort((a, b) => b.reaction.at - a.reaction.at || a.i - b.i || a.k - b.k);
}

const COLUMNS = [
  textColumn('questionId'),
  textColumn('sessionId'),
  textColumn('clientId'),
  textColumn('botId'),
  textColumn('channelType'),
  dateTimeColumn('messageTime'),
  textColumn('question'),
  textColumn('textAnswer'),
  textColumn('reaction'),
  dateTimeColumn('reactionTime'),
];

export function reactionsTable(p: ProjectData, rows: readonly Row[]): ReportTable {
  return lazyTable('Reactions', COLUMNS, rows, ({ i, k, reaction }) => {
    const facts = p.messageFacts(i, k);
    const values: Record<string, unknown> = {
      questionId: p.questionId(i, k),
      sessionId: p.sessionId(i),
      clientId: p.clientId(p.skeleton.client.get(i)),
      botId: p.botIdOf(i),
      channelType: p.channelOf(i),
      messageTime: facts.time,
      question: facts.question,
      textAnswer: facts.answer,
      reaction: reaction.reaction,
      reactionTime: reaction.at,
    };
    return rowOf(COLUMNS, (name) => values[name]);
  });
}
