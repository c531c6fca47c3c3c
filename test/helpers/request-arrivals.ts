// Test helper: when each API request reached the emulator (its own clock, not the client's word), by
// wrapping the emulator's fault lookup, which every API request passes through once on arrival.
import type { Emulator } from '../../src/emulator/emulator.js';
import type { FaultType } from '../../src/emulator/faults.js';

export interface Arrival {
  path: string;
  method: string;
  /** Date.now() when the request arrived. */
  at: number;
  /** The request fault it got, if any. */
  fault: FaultType | undefined;
}

export function recordArrivals(emulator: Emulator): Arrival[] {
  const arrivals: Arrival[] = [];
  const faults = emulator.faults;
  const take = faults.take.bind(faults);
  faults.take = (types, request) => {
    const fault = take(types, request);
    // the request-level lookup (the one that can answer 429) happens once per request, on arrival
    if (types.includes('status429'))
      arrivals.push({ path: request.path, method: request.method, at: Date.now(), fault: fault?.type });
    return fault;
  };
  return arrivals;
}
