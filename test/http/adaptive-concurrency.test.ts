// The Reporter client's requests in flight (src/http/adaptive-concurrency.ts), driven by round trips and 429s
// given by the test (no clock, no network): growth while the round trip stays flat and every slot is used,
// back-off on 429 and on a climbing round trip, and recovery after a lone 429 within a few rounds.
import { describe, expect, it } from 'vitest';
import { AdaptiveConcurrency } from '../../src/http/adaptive-concurrency.js';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `count` requests at once, each answered after a tick with round trip `ms` (or 429); the most in flight. */
async function burst(c: AdaptiveConcurrency, count: number, ms: number, throttled = false): Promise<number> {
  let active = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: count }, () =>
      c.run(async (started) => {
        active++;
        most = Math.max(most, active);
        await tick();
        active--;
        if (throttled) c.recordThrottle(started);
        else c.recordLatency(ms);
      }),
    ),
  );
  return most;
}

/** `rounds` rounds that each use every slot (as many requests as the limit), round trip `ms`. */
async function fullRounds(c: AdaptiveConcurrency, rounds: number, ms: number): Promise<number[]> {
  const limits: number[] = [];
  for (let n = 0; n < rounds; n++) {
    await burst(c, c.limit, ms);
    limits.push(c.limit);
  }
  return limits;
}

describe('AdaptiveConcurrency', () => {
  it('never runs more than the limit at once, in arrival order', async () => {
    const c = new AdaptiveConcurrency({ initial: 3 });
    const order: number[] = [];
    let active = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        c.run(async () => {
          order.push(n);
          active++;
          most = Math.max(most, active);
          await tick();
          active--;
        }),
      ),
    );
    expect(most).toBe(3);
    expect(order).toEqual(Array.from({ length: 20 }, (_, n) => n));
  });

  it('without a max above the start it is fixed: no growth, no back-off', async () => {
    const c = new AdaptiveConcurrency({ initial: 4 });
    await fullRounds(c, 10, 60);
    await burst(c, 4, 60, true);
    expect(c.limit).toBe(4);
    expect(c.highest).toBe(4);
  });

  it('grows by one a round while the round trip stays flat and every slot is used, up to the max', async () => {
    const c = new AdaptiveConcurrency({ initial: 4, max: 12 });
    const limits = await fullRounds(c, 12, 60);
    expect(limits.slice(0, 8)).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
    expect(c.limit).toBe(12);
    expect(c.highest).toBe(12);
  });

  it('does not grow while fewer requests are asked for than it allows', async () => {
    const c = new AdaptiveConcurrency({ initial: 8, max: 32 });
    for (let n = 0; n < 20; n++) await burst(c, 3, 60);
    expect(c.limit).toBe(8);
  });

  it('a 429 takes a quarter off once for the requests of its round; a lone one is made up in a few rounds', async () => {
    const c = new AdaptiveConcurrency({ initial: 4, max: 32 });
    await fullRounds(c, 12, 60);
    expect(c.limit).toBe(16);
    // sixteen in flight answered 429 together: one decrease, not sixteen
    await burst(c, 16, 60, true);
    expect(c.limit).toBe(12);
    // one started after the decrease lowers it again
    await burst(c, 1, 60, true);
    expect(c.limit).toBe(9);
    const limits = await fullRounds(c, 7, 60);
    expect(limits.at(-1)).toBe(16);
    expect(c.highest).toBe(16);
  });

  it('a round trip climbing above twice the least seen takes a tenth off; a flat one grows again', async () => {
    const c = new AdaptiveConcurrency({ initial: 10, max: 32 });
    await fullRounds(c, 3, 60);
    expect(c.limit).toBe(13);
    await fullRounds(c, 1, 150); // the server queues: 2.5× the round trip
    expect(c.limit).toBe(11);
    await fullRounds(c, 1, 100); // within twice: not queueing, grows
    expect(c.limit).toBe(12);
  });

  it('a climbing round trip never takes it below where it started; a 429 does', async () => {
    const c = new AdaptiveConcurrency({ initial: 4, max: 32 });
    await fullRounds(c, 2, 60);
    expect(c.limit).toBe(6);
    await fullRounds(c, 5, 200); // a busy machine: every round trip above twice the least
    expect(c.limit).toBe(4);
    await burst(c, c.limit, 60, true);
    expect(c.limit).toBe(3);
  });

  it('stays between the floor and the max', async () => {
    const c = new AdaptiveConcurrency({ initial: 4, max: 6, floor: 2 });
    for (let n = 0; n < 10; n++) await burst(c, c.limit, 60, true);
    expect(c.limit).toBe(2);
    await fullRounds(c, 20, 60);
    expect(c.limit).toBe(6);
  });
});
