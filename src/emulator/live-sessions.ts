// Sessions that arrive from outside the generated history (Chat API dialogues): what each message was, as
// the dialogue stored it, by session index; and the clients' own ids. ProjectData reads a message's facts
// from here when its session is live, so the Reporter's answers and the ground truth show these dialogues
// like any other session (channel type `chatapi`).
import type { MessageFacts } from './project-data.js';

/** One message of a live session: its facts (see MessageFacts), and who asked over which connection. */
export interface LiveMessage {
  facts: Omit<MessageFacts, 'i' | 'k'>;
  /** The connection id (`cid`) the request carried. */
  cid?: string;
  /** Order of creation among all live messages: events at the same millisecond keep it. */
  seq: number;
  /** The `data` object the request carried. */
  requestData?: Record<string, unknown>;
}

export interface LiveSession {
  /** The Chat API channel token the dialogue came through. */
  token: string;
  clientIndex: number;
  messages: LiveMessage[];
}

export class LiveSessions {
  readonly sessions = new Map<number, LiveSession>();
  /** Client ids chosen by the callers, by client index. */
  readonly clientIds = new Map<number, string>();
  private seq = 0;

  nextSeq(): number {
    return ++this.seq;
  }
}
