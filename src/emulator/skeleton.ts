// The columnar skeleton of one project's data: session start times, message times, channels, clients and
// transfers, derived from (seed, index) and grown in time order as the emulator's clock advances.
// Invariant: session start times strictly increase with the index; every session lasts under MAX_SESSION_MS.
// Sessions can also arrive from outside (Chat API dialogues, addLiveSession): they take the next index, reserve
// MAX_MESSAGES message slots and get their messages appended as they happen; no generated session returns to
// their clients.
import { Growable, lowerBound, upperBound } from './growable.js';
import { pickIndex, pickWeighted, unit } from './prng.js';
import { CHANNEL_WEIGHTS, CHANNELS } from './vocabulary.js';

export const DAY_MS = 86_400_000;
/** No session lasts longer than this: 60 messages at most, gaps of 5 minutes at most. */
export const MAX_SESSION_MS = 6 * 3_600_000;
export const MAX_MESSAGES = 60;
const MAX_GAP_MS = 300_000;
const RETURNING_SHARE = 0.4;
const EMPTY_SHARE = 0.08;
const TRANSFER_SHARE = 0.12;
const RETURNING_LOOKBACK = 20_000;

export interface SkeletonOptions {
  seed: number;
  /** Sessions in the history [now - days, now). */
  sessions: number;
  days: number;
  /** End of the history: the emulator's clock when it starts. */
  now: number;
  /** Average messages per session (empty sessions included). */
  messagesPerSession: number;
}

/** Inverse CDF of a day's activity: few sessions around 00:00 UTC (03:00 Moscow), most around 12:00 UTC. */
const DIURNAL = buildDiurnalWarp(0.8, 4096);

function buildDiurnalWarp(amplitude: number, steps: number): Float64Array {
  const table = new Float64Array(steps + 1);
  const cdf = (x: number) => x - (amplitude / (2 * Math.PI)) * Math.sin(2 * Math.PI * x);
  let x = 0;
  for (let s = 0; s <= steps; s++) {
    const y = s / steps;
    for (let it = 0; it < 30; it++) {
      const f = cdf(x) - y;
      const d = 1 - amplitude * Math.cos(2 * Math.PI * x);
      x = Math.min(1, Math.max(0, x - f / d));
    }
    table[s] = x;
  }
  return table;
}

function warpDayFraction(y: number): number {
  const pos = y * (DIURNAL.length - 1);
  const lo = Math.floor(pos);
  const a = DIURNAL[lo] ?? 1;
  const b = DIURNAL[lo + 1] ?? 1;
  return a + (b - a) * (pos - lo);
}

export class Skeleton {
  readonly seed: number;
  readonly t0: number;
  readonly slotMs: number;
  private readonly extraMean: number;

  readonly start = new Growable(Float64Array);
  readonly msgOffset = new Growable(Float64Array);
  readonly msgCount = new Growable(Uint16Array);
  readonly client = new Growable(Uint32Array);
  readonly channel = new Growable(Uint8Array);
  /** Index of the message whose bot answer hands the dialog to an agent, or -1. */
  readonly transferAt = new Growable(Int16Array);
  readonly msgTime = new Growable(Float64Array);

  readonly clientChannel = new Growable(Uint8Array);
  readonly clientCreator = new Growable(Uint32Array);
  readonly clientLastSession = new Growable(Uint32Array);
  readonly clientSessionCount = new Growable(Uint32Array);
  /** The same client's previous session of session i, or -1 (messages/by-client walks a client's sessions back). */
  readonly previousOfClient = new Growable(Int32Array);
  /** Clients created by live sessions (addLiveClient): generated sessions never return to them. */
  private readonly liveClients = new Set<number>();
  /** Message slots reserved by live sessions and not used yet (not counted in messageCount). */
  private reservedSlots = 0;

  constructor(options: SkeletonOptions) {
    if (!(options.sessions > 0)) throw new Error('sessions must be a positive number');
    if (!(options.days > 0)) throw new Error('days must be a positive number');
    this.seed = options.seed;
    this.t0 = options.now - options.days * DAY_MS;
    this.slotMs = (options.days * DAY_MS) / options.sessions;
    // empty sessions have no messages; the others have 1 + an exponential number of extra messages
    this.extraMean = Math.max(0, options.messagesPerSession / (1 - EMPTY_SHARE) - 1);
    this.growTo(options.now);
  }

  get sessionCount(): number {
    return this.start.length;
  }

  get messageCount(): number {
    return this.msgTime.length - this.reservedSlots;
  }

  /** The planned start time of session i, before it exists (strictly after session i - 1). */
  private plannedStart(i: number): number {
    const slot = this.t0 + (i + unit(this.seed, i, 0)) * this.slotMs;
    const day = Math.floor(slot / DAY_MS) * DAY_MS;
    const t = Math.floor(day + warpDayFraction((slot - day) / DAY_MS) * DAY_MS);
    const prev = i > 0 ? this.start.get(i - 1) : Number.NEGATIVE_INFINITY;
    return t > prev ? t : prev + 1;
  }

  /** Adds every session that starts at or before `time`. */
  growTo(time: number): void {
    for (;;) {
      const i = this.start.length;
      const t = this.plannedStart(i);
      if (t > time) return;
      this.addSession(i, t);
    }
  }

  private addSession(i: number, startTime: number): void {
    const s = this.seed;
    let clientIndex: number;
    if (i > 0 && unit(s, i, 4) < RETURNING_SHARE) {
      const back = 1 + pickIndex(Math.min(i, RETURNING_LOOKBACK), s, i, 5);
      clientIndex = this.client.get(i - back);
      if (this.liveClients.has(clientIndex)) clientIndex = this.newClient(i, s);
    } else clientIndex = this.newClient(i, s);
    this.linkToPreviousOfClient(clientIndex, i);
    this.clientLastSession.set(clientIndex, i);
    this.clientSessionCount.set(clientIndex, this.clientSessionCount.get(clientIndex) + 1);
    const channelIndex = this.clientChannel.get(clientIndex);

    let count = 0;
    if (unit(s, i, 1) >= EMPTY_SHARE) {
      count = 1 + Math.min(MAX_MESSAGES - 1, Math.floor(-Math.log(1 - unit(s, i, 2)) * this.extraMean));
    }
    let transfer = -1;
    if (count >= 2 && CHANNELS[channelIndex] !== 'resterisk' && unit(s, i, 3) < TRANSFER_SHARE) {
      transfer = pickIndex(Math.min(count - 1, 5), s, i, 7);
    }

    this.start.push(startTime);
    this.msgOffset.push(this.msgTime.length);
    this.msgCount.push(count);
    this.client.push(clientIndex);
    this.channel.push(channelIndex);
    this.transferAt.push(transfer);

    let t = startTime + 200 + Math.floor(unit(s, i, 8) * 1300);
    for (let k = 0; k < count; k++) {
      if (k > 0) {
        const gauss =
          Math.sqrt(-2 * Math.log(1 - unit(s, i, k, 9))) * Math.cos(2 * Math.PI * unit(s, i, k, 10));
        const gap = Math.exp(Math.log(20_000) + gauss);
        t += Math.floor(Math.min(MAX_GAP_MS, Math.max(2_000, gap)));
      }
      this.msgTime.push(t);
    }
  }

  /** Links session i (not pushed yet) to its client's latest session, unless i is the client's first. */
  private linkToPreviousOfClient(clientIndex: number, i: number): void {
    const last = this.clientLastSession.get(clientIndex);
    this.previousOfClient.push(last === i ? -1 : last);
  }

  private newClient(i: number, s: number): number {
    const channelIndex = CHANNELS.indexOf(pickWeighted(CHANNELS, CHANNEL_WEIGHTS, unit(s, i, 6)));
    return this.pushClient(channelIndex, i);
  }

  private pushClient(channelIndex: number, creator: number): number {
    const clientIndex = this.clientCreator.length;
    this.clientChannel.push(channelIndex);
    this.clientCreator.push(creator);
    this.clientLastSession.push(creator);
    this.clientSessionCount.push(0);
    return clientIndex;
  }

  /**
   * A session that arrives from outside at `time` (the clock, after growTo(time)): it takes the next index,
   * starts up to a second before `time` (strictly after the previous session), has no messages yet and keeps
   * MAX_MESSAGES slots for them. `clientIndex` undefined: a new client of `channelIndex` whose first session
   * this is. Returns the session index and its client.
   */
  addLiveSession(
    time: number,
    channelIndex: number,
    clientIndex?: number,
  ): { i: number; clientIndex: number } {
    const i = this.start.length;
    const prev = i > 0 ? this.start.get(i - 1) : Number.NEGATIVE_INFINITY;
    const client = clientIndex ?? this.pushClient(channelIndex, i);
    this.liveClients.add(client);
    this.linkToPreviousOfClient(client, i);
    this.clientLastSession.set(client, i);
    this.clientSessionCount.set(client, this.clientSessionCount.get(client) + 1);
    this.start.push(Math.max(prev + 1, time - 1000));
    this.msgOffset.push(this.msgTime.length);
    this.msgCount.push(0);
    this.client.push(client);
    this.channel.push(this.clientChannel.get(client));
    this.transferAt.push(-1);
    for (let k = 0; k < MAX_MESSAGES; k++) this.msgTime.push(Number.POSITIVE_INFINITY);
    this.reservedSlots += MAX_MESSAGES;
    return { i, clientIndex: client };
  }

  /** Appends a message at `time` to live session i (it must have a free slot); returns its index k. */
  appendLiveMessage(i: number, time: number): number {
    const k = this.msgCount.get(i);
    if (k >= MAX_MESSAGES) throw new Error(`live session ${i} has no free message slot`);
    this.msgTime.set(this.msgOffset.get(i) + k, Math.max(time, this.start.get(i)));
    this.msgCount.set(i, k + 1);
    this.reservedSlots--;
    return k;
  }

  /** The client came from outside (addLiveSession created it). */
  isLiveClient(clientIndex: number): boolean {
    return this.liveClients.has(clientIndex);
  }

  /** Sessions whose start time lies in [from, to] (inclusive), as an index range [lo, hi). */
  sessionsStartingIn(from: number, to: number): [number, number] {
    const n = this.start.length;
    return [lowerBound(this.start, n, from), upperBound(this.start, n, to)];
  }

  messageTime(i: number, k: number): number {
    return this.msgTime.get(this.msgOffset.get(i) + k);
  }

  /** How many of session i's messages have a timestamp at or before `now`. */
  visibleMessageCount(i: number, now: number): number {
    const count = this.msgCount.get(i);
    if (count === 0) return 0;
    const offset = this.msgOffset.get(i);
    if (this.msgTime.get(offset + count - 1) <= now) return count;
    let k = 0;
    while (k < count && this.msgTime.get(offset + k) <= now) k++;
    return k;
  }
}
