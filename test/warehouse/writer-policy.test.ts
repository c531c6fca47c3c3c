// The writer's policy alone, on a fake clock: an idle writer lets go after a second without an operation or
// a served read, at once (within a tick) when someone waits, after at most 2 s while a read is served; a turn
// before an operation is given at most every 3 s, and the writer stays out until the waiter got in.
import { describe, expect, it } from 'vitest';
import {
  createWriterPolicy,
  IDLE_WATCH_EVERY_MS,
  type PolicyClock,
  SERVED_READS_TURN_LIMIT_MS,
  TURN_EVERY_MS,
  WRITER_IDLE_RELEASE_MS,
} from '../../src/warehouse/writer-policy.js';

/** A clock whose time moves only when the test says, firing its timers on the way. */
function fakeClock(): PolicyClock & { advance(ms: number): void; timers(): number } {
  let time = 10_000;
  const timers = new Set<{ every: number; next: number; tick: () => void }>();
  return {
    now: () => time,
    every(ms, tick) {
      const timer = { every: ms, next: time + ms, tick };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    advance(ms) {
      const until = time + ms;
      for (;;) {
        const due = [...timers].filter((t) => t.next <= until).sort((a, b) => a.next - b.next)[0];
        if (!due) break;
        time = due.next;
        due.next += due.every;
        due.tick();
      }
      time = until;
    },
    timers: () => timers.size,
  };
}

function setUp() {
  const clock = fakeClock();
  const world = { waiting: false, serving: false, idle: true, releases: 0, stays: 0 };
  const policy = createWriterPolicy({
    isSomeoneWaiting: () => world.waiting,
    isServing: () => world.serving,
    stayOut: async () => {
      world.stays++;
      clock.advance(500);
    },
    clock,
  });
  const watch = () =>
    policy.watchIdle(
      () => world.idle,
      () => world.releases++,
    );
  return { clock, world, policy, watch };
}

describe("the writer's policy", () => {
  it('lets go of the file after a second without an operation', () => {
    const { clock, world, watch } = setUp();
    watch();
    clock.advance(WRITER_IDLE_RELEASE_MS - IDLE_WATCH_EVERY_MS);
    expect(world.releases).toBe(0);
    clock.advance(IDLE_WATCH_EVERY_MS);
    expect(world.releases).toBe(1);
    expect(clock.timers()).toBe(0);
  });

  it('each new idle moment starts the second again; one watch at a time', () => {
    const { clock, world, watch } = setUp();
    watch();
    clock.advance(600);
    watch();
    expect(clock.timers()).toBe(1);
    clock.advance(600);
    expect(world.releases).toBe(0);
    clock.advance(400);
    expect(world.releases).toBe(1);
  });

  it('a served read counts as activity: the writer keeps the file while it runs', () => {
    const { clock, world, watch } = setUp();
    world.serving = true;
    watch();
    clock.advance(5_000);
    expect(world.releases).toBe(0);
    world.serving = false;
    clock.advance(WRITER_IDLE_RELEASE_MS - IDLE_WATCH_EVERY_MS);
    expect(world.releases).toBe(0);
    clock.advance(IDLE_WATCH_EVERY_MS);
    expect(world.releases).toBe(1);
  });

  it('lets a waiting process in within a tick, unless a read is served', () => {
    const { clock, world, watch } = setUp();
    world.waiting = true;
    world.serving = true;
    watch();
    clock.advance(IDLE_WATCH_EVERY_MS * 3);
    expect(world.releases).toBe(0);
    world.serving = false;
    clock.advance(IDLE_WATCH_EVERY_MS);
    expect(world.releases).toBe(1);
  });

  it('served reads hold a waiting process back at most SERVED_READS_TURN_LIMIT_MS: then they are overdue', async () => {
    const { clock, world, watch, policy } = setUp();
    world.waiting = true;
    world.serving = true;
    watch();
    // held back from the first tick on
    clock.advance(SERVED_READS_TURN_LIMIT_MS);
    expect([world.releases, policy.areReadsOverdue()]).toEqual([0, false]);
    clock.advance(IDLE_WATCH_EVERY_MS);
    // the idle writer lets go, and the reads still running are cut without waiting for them
    expect([world.releases, policy.areReadsOverdue()]).toEqual([1, true]);
    // a busy writer gives the turn before its next operation the same way, and the count starts again
    let letGo = 0;
    await policy.giveTurnIfDue(async () => void letGo++);
    expect([letGo, policy.areReadsOverdue()]).toEqual([1, false]);
  });

  it('the watch ends without a release when an operation comes', () => {
    const { clock, world, watch } = setUp();
    watch();
    world.idle = false;
    clock.advance(IDLE_WATCH_EVERY_MS);
    expect(clock.timers()).toBe(0);
    clock.advance(5_000);
    expect(world.releases).toBe(0);
  });

  it('stop() ends the watch', () => {
    const { clock, world, watch, policy } = setUp();
    watch();
    policy.stop();
    clock.advance(5_000);
    expect(world.releases).toBe(0);
  });

  it('gives a turn before an operation at most every 3 s: lets go, stays out, then notes it', async () => {
    const { clock, world, policy } = setUp();
    let letGo = 0;
    const giveTurn = () => policy.giveTurnIfDue(async () => void letGo++);
    await giveTurn();
    expect(letGo).toBe(0);
    world.waiting = true;
    await giveTurn();
    expect([letGo, world.stays]).toEqual([1, 1]);
    // the 3 s count from the end of the stay out
    expect(policy.isTurnDue()).toBe(false);
    clock.advance(TURN_EVERY_MS - 1);
    await giveTurn();
    expect(letGo).toBe(1);
    clock.advance(1);
    world.serving = true;
    expect(policy.isTurnDue()).toBe(false);
    world.serving = false;
    await giveTurn();
    expect([letGo, world.stays]).toEqual([2, 2]);
  });

  it('an idle writer that gave a turn less than 3 s ago keeps the file for its second', async () => {
    const { clock, world, policy, watch } = setUp();
    world.waiting = true;
    await policy.giveTurnIfDue(async () => {});
    watch();
    clock.advance(WRITER_IDLE_RELEASE_MS - IDLE_WATCH_EVERY_MS);
    expect(world.releases).toBe(0);
    clock.advance(IDLE_WATCH_EVERY_MS);
    expect(world.releases).toBe(1);
  });
});
