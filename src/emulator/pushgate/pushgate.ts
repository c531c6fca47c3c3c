// The emulated Pushgate: pushbacks (each fires an event into one dialog of one channel) and the record of
// every push it received, the ground truth of a sender's tests. A pushback is either one of the sessions'
// (the id its bot stored in sessionData, see ProjectData.pushbackId) or a standalone one created by id (the
// team's "ops" dialog that notifications go to). The platform does not deduplicate: every push is recorded.
import { ApiError } from '../api-error.js';
import type { Emulator } from '../emulator.js';

/** The standalone pushback every emulator has: the ops dialog of the first project (notifications). */
export const DEFAULT_PUSHBACK_ID = 'ops-7f3c9a1e5b2d4c68e0a1';

export interface Pushback {
  pushbackId: string;
  project: string;
  /** The session whose dialog it fires into (pushbacks of sessions); none for a standalone one. */
  sessionId?: string;
  clientId?: string;
  channelType?: string;
}

/** One push as received and accepted (200): what a sender's tests compare with. */
export interface PushReceipt {
  /** Order of arrival, from 1. */
  seq: number;
  pushbackId: string;
  project: string;
  sessionId?: string;
  method: 'GET' | 'POST';
  /** Real time of arrival (ISO 8601). */
  receivedAt: string;
  /** The parsed JSON body of a POST (none for GET or an empty body). */
  body?: unknown;
}

export class Pushgate {
  private readonly standalone = new Map<string, Pushback>();
  private readonly deleted = new Set<string>();
  readonly received: PushReceipt[] = [];

  constructor(
    private readonly emulator: Emulator,
    pushbacks: readonly { pushbackId: string; project?: string }[],
  ) {
    for (const p of pushbacks) this.create(p.pushbackId, p.project);
  }

  create(pushbackId: string, project = this.emulator.options.projects[0]!): Pushback {
    this.emulator.project(project);
    const pushback = { pushbackId, project };
    this.standalone.set(pushbackId, pushback);
    this.deleted.delete(pushbackId);
    return pushback;
  }

  /** Deletes a pushback: later pushes to it answer 404. */
  delete(pushbackId: string): void {
    this.deleted.add(pushbackId);
  }

  /** The pushback of an id, if it exists and was not deleted. */
  find(pushbackId: string): Pushback | undefined {
    if (this.deleted.has(pushbackId)) return undefined;
    const own = this.standalone.get(pushbackId);
    if (own) return own;
    for (const p of this.emulator.projects.values()) {
      const i = p.pushbackSession(pushbackId);
      if (i === undefined) continue;
      return {
        pushbackId,
        project: p.name,
        sessionId: p.sessionId(i),
        clientId: p.clientId(p.skeleton.client.get(i)),
        channelType: p.channelOf(i),
      };
    }
    return undefined;
  }

  /** Fires a pushback: records the push, or throws the 404 of an unknown or deleted pushback. */
  push(pushbackId: string, method: 'GET' | 'POST', body: unknown): PushReceipt {
    const pushback = this.find(pushbackId);
    if (!pushback)
      throw new ApiError(404, 'pushgate.not_found.pushback', 'no such pushback (unknown or deleted)');
    const receipt: PushReceipt = {
      seq: this.received.length + 1,
      pushbackId,
      project: pushback.project,
      ...(pushback.sessionId === undefined ? {} : { sessionId: pushback.sessionId }),
      method,
      receivedAt: new Date().toISOString(),
      ...(body === undefined ? {} : { body }),
    };
    this.received.push(receipt);
    return receipt;
  }

  /** Pushes received so far (of one pushback when given), in order of arrival. */
  receipts(pushbackId?: string): PushReceipt[] {
    return this.received.filter((r) => pushbackId === undefined || r.pushbackId === pushbackId);
  }
}
