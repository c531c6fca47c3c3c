// Message statuses of the Chat API (SENT, DELIVERED, READ, NOT_SENT) on bot and agent messages: a timeline
// from the answer's time by the emulator clock (SENT at once, DELIVERED within a minute, READ for most
// within a day; 3% NOT_SENT), unless a client set a status (POST status / message-statuses), which stays.
// With the emulator's `newStatus` (a status the platform added later), that share of the answers is given it
// after SENT and keeps it, as the Reporter's status channels do.

import { pickIndex, unit } from '../prng.js';
import type { ProjectData } from '../project-data.js';

export const CHAT_STATUSES = ['SENT', 'DELIVERED', 'READ', 'NOT_SENT'] as const;
export type ChatStatus = (typeof CHAT_STATUSES)[number];
/** A documented status, or one the platform added later (EmulatorOptions.newStatus). */
export type ChatStatusValue = ChatStatus | (string & {});

const READ_DELAY_MS = 24 * 3_600_000;

export function isChatStatus(value: unknown): value is ChatStatus {
  return typeof value === 'string' && (CHAT_STATUSES as readonly string[]).includes(value);
}

/** When the answer to message (i, k) reached the client. */
export function answerTime(p: ProjectData, i: number, k: number): number {
  const f = p.messageFacts(i, k);
  return f.answerAt ?? f.time + f.processingTime;
}

/** The status timeline of the answer to message (i, k), from its answer time. */
export function chatStatusSteps(
  p: ProjectData,
  i: number,
  k: number,
): { status: ChatStatusValue; at: number }[] {
  const s = p.seed;
  const base = answerTime(p, i, k);
  const u = unit(s, i, k, 150);
  if (u < 0.03) return [{ status: 'NOT_SENT', at: base }];
  // a status the platform added later: the answer stays in it (its own draw, so the others keep theirs)
  if (p.newStatus && unit(s, i, k, 154) < p.newStatus.share)
    return [
      { status: 'SENT', at: base },
      { status: p.newStatus.status, at: base + 2_000 },
    ];
  const deliveredAt = base + 1_000 + pickIndex(59_000, s, i, k, 151);
  const steps: { status: ChatStatusValue; at: number }[] = [
    { status: 'SENT', at: base },
    { status: 'DELIVERED', at: deliveredAt },
  ];
  if (unit(s, i, k, 152) < 0.7) {
    const wait = Math.min(READ_DELAY_MS, Math.floor(-Math.log(1 - unit(s, i, k, 153)) * 20 * 60_000));
    steps.push({ status: 'READ', at: deliveredAt + 1_000 + wait });
  }
  return steps;
}

/** Statuses clients set, by project and questionId: they replace the timeline. */
export class ChatStatusOverrides {
  private readonly set = new Map<string, ChatStatus>();

  private key(p: ProjectData, questionId: string): string {
    return `${p.name}\u0000${questionId}`;
  }

  get(p: ProjectData, questionId: string): ChatStatus | undefined {
    return this.set.get(this.key(p, questionId));
  }

  put(p: ProjectData, questionId: string, status: ChatStatus): void {
    this.set.set(this.key(p, questionId), status);
  }
}

/** The status of the answer to message (i, k) as of `now` (undefined before the answer exists). */
export function chatStatusAt(
  p: ProjectData,
  overrides: ChatStatusOverrides,
  i: number,
  k: number,
  now: number,
): ChatStatusValue | undefined {
  if (answerTime(p, i, k) > now) return undefined;
  const set = overrides.get(p, p.questionId(i, k));
  if (set) return set;
  let status: ChatStatusValue | undefined;
  for (const step of chatStatusSteps(p, i, k)) if (step.at <= now) status = step.status;
  return status;
}
