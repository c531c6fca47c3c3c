// Fault injection for the emulator: scripted per test (a rule fires a given number of times on matching
// requests) or by rate (seeded, so a run is repeatable). Every rule counts its firings, so a test can
// fail when a fault it scripted never fired.
import { unit } from './prng.js';

export const FAULT_TYPES = [
  'status429',
  'status500',
  'status502',
  'status503',
  'drop',
  'slow',
  'truncate',
  'nonJson',
  'invalidRecord',
  'pageDrift',
  'duplicateEvent',
  'expiredUrl',
  'reportFail',
  'dropAnswer',
  /** The knowledge base: a submitted generation FAILS. */
  'queryFail',
  /** The knowledge base: an SSE generation stream is cut after `count` chunks (default 1). */
  'streamCut',
] as const;
export type FaultType = (typeof FAULT_TYPES)[number];

/** Faults decided before a request is handled; the others are taken by the handlers that can apply them. */
export const REQUEST_FAULTS: readonly FaultType[] = [
  'status429',
  'status500',
  'status502',
  'status503',
  'drop',
  'slow',
  'truncate',
  'nonJson',
];

export interface FaultRule {
  type: FaultType;
  /** Substring of the request path (after the generation prefix, e.g. `sessions/filter`); any when absent. */
  path?: string;
  method?: string;
  /** How many times it fires (default 1). */
  times?: number;
  /** Matching requests to let through before it fires (default 0). */
  after?: number;
  /** 429: the Retry-After header, in seconds (default 1). */
  retryAfter?: number;
  /** 429: send Retry-After as delta-seconds (default) or as an HTTP-date `retryAfter` seconds ahead. */
  retryAfterForm?: 'seconds' | 'date';
  /** 429 with an HTTP-date: how far the server's clock (its Date header and the date) is off real time, in ms. */
  serverClockOffsetMs?: number;
  /** slow: the delay in ms (default 2000). */
  delayMs?: number;
  /** invalidRecord: which record of the page (default 0) and how to break it. */
  recordIndex?: number;
  variant?: 'wrongType' | 'missingField';
  /** pageDrift: how many sessions arrive while the client pages (default 3); streamCut: chunks sent before the cut (default 1). */
  count?: number;
}

export interface FaultState extends FaultRule {
  id: number;
  fired: number;
  seen: number;
}

export interface FaultRequest {
  path: string;
  method: string;
}

export class Faults {
  private rules: FaultState[] = [];
  private nextId = 1;
  private rates: Partial<Record<FaultType, number>> = {};
  private draws = 0;
  private readonly seed: number;
  readonly firedByRate: Partial<Record<FaultType, number>> = {};

  constructor(seed = 1) {
    this.seed = seed;
  }

  /** Adds a scripted rule; returns its live state (see `fired`). */
  script(rule: FaultRule): FaultState {
    const state: FaultState = { ...rule, id: this.nextId++, fired: 0, seen: 0 };
    this.rules.push(state);
    return state;
  }

  /** Faults by rate: the share (0..1) of requests that get each fault type. */
  setRates(rates: Partial<Record<FaultType, number>>): void {
    this.rates = { ...rates };
  }

  clear(): void {
    this.rules = [];
    this.rates = {};
  }

  list(): FaultState[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** Scripted rules that have not fired as often as asked. */
  unfired(): FaultState[] {
    return this.rules.filter((r) => r.fired < (r.times ?? 1));
  }

  assertAllFired(): void {
    const missing = this.unfired();
    if (missing.length > 0) {
      throw new Error(
        `scripted faults never fired: ${missing.map((r) => `#${r.id} ${r.type} ${r.path ?? '*'} (${r.fired}/${r.times ?? 1})`).join(', ')}`,
      );
    }
  }

  /** Takes the first fault of one of `types` that applies to this request, counting it as fired. */
  take(types: readonly FaultType[], request: FaultRequest): FaultState | undefined {
    for (const rule of this.rules) {
      if (!types.includes(rule.type) || rule.fired >= (rule.times ?? 1)) continue;
      if (rule.path !== undefined && !request.path.includes(rule.path)) continue;
      if (rule.method !== undefined && rule.method.toUpperCase() !== request.method.toUpperCase()) continue;
      rule.seen++;
      if (rule.seen <= (rule.after ?? 0)) continue;
      rule.fired++;
      return rule;
    }
    for (const type of types) {
      const rate = this.rates[type];
      if (rate && unit(this.seed, this.draws++, 7777) < rate) {
        this.firedByRate[type] = (this.firedByRate[type] ?? 0) + 1;
        return { type, id: 0, fired: 1, seen: 1 };
      }
    }
    return undefined;
  }
}
