// Retry-After in both forms (delta-seconds and HTTP-date, from the server's Date header), and the pause it
// starts being shared by every request of the client: measured on the emulator's side, when requests arrive.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_V1_TOKEN } from '../../../src/emulator/emulator.js';
import { type RunningEmulator, startEmulator } from '../../../src/emulator/server.js';
import { EtlError } from '../../../src/errors.js';
import { RateLimiter } from '../../../src/http/rate-limiter.js';
import { parseRetryAfter } from '../../../src/http/retry-after.js';
import { ReporterHttp } from '../../../src/platform/reporter/reporter-http.js';
import { TEST_NOW } from '../../helpers/emulator-client.js';
import { type Arrival, recordArrivals } from '../../helpers/request-arrivals.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-01T12:00:00Z');
  it('reads seconds, and HTTP-dates from the Date header (else the local clock); a past date is 0', () => {
    expect(parseRetryAfter('7', undefined, now)).toBe(7000);
    expect(parseRetryAfter(['0'], undefined, now)).toBe(0);
    expect(parseRetryAfter('Sun, 01 Nov 2026 12:00:10 GMT', undefined, now)).toBe(10_000);
    // the server's clock is an hour behind ours: its Date header is the reference
    expect(parseRetryAfter('Sun, 01 Nov 2026 11:00:10 GMT', 'Sun, 01 Nov 2026 11:00:00 GMT', now)).toBe(
      10_000,
    );
    expect(parseRetryAfter('Sun, 01 Nov 2026 11:59:00 GMT', undefined, now)).toBe(0);
    // the obsolete forms RFC 9110 still asks recipients to read
    expect(parseRetryAfter('Sunday, 01-Nov-26 12:00:05 GMT', undefined, now)).toBe(5000);
    expect(parseRetryAfter(undefined, undefined, now)).toBeUndefined();
    expect(parseRetryAfter('-5', undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', undefined, now)).toBeUndefined();
  });
});

describe('RateLimiter', () => {
  it('holds a request already waiting for its slot when a pause begins meanwhile', async () => {
    let clock = 0;
    let onSleep: (() => void) | undefined;
    const limiter = new RateLimiter({
      maxPerMinute: 60,
      now: () => clock,
      sleep: async (ms) => {
        onSleep?.();
        onSleep = undefined;
        clock += ms;
      },
    });
    await limiter.acquire(); // t = 0
    onSleep = () => limiter.pause(5000); // a 429 arrives while the next request waits for its slot
    await limiter.acquire();
    expect(clock).toBeGreaterThanOrEqual(5000);
  });

  /** A limiter on a fake clock that counts its sleeps; `send` acquires, waits for the answer, reports it. */
  function fakeLimiter(maxPerMinute?: number) {
    const state = { clock: 0, sleeps: 0 };
    const limiter = new RateLimiter({
      maxPerMinute,
      now: () => state.clock,
      sleep: async (ms) => {
        state.sleeps++;
        state.clock += ms;
      },
    });
    /** `count` requests one after another, each answered `latencyMs` after it left, 429 or not. */
    async function send(count: number, latencyMs: number, answer: 'ok' | '429' = 'ok') {
      for (let n = 0; n < count; n++) {
        const sent = await limiter.acquire();
        state.clock += latencyMs;
        if (answer === '429') limiter.backOff(sent);
        else limiter.recordSuccess();
      }
    }
    return { limiter, state, send };
  }

  it('never delays a request when no 429 was seen and no hard cap is set', async () => {
    const { limiter, state, send } = fakeLimiter();
    await send(5000, 0); // 5,000 requests at the same instant: an unlimited rate
    await send(500, 3);
    expect(state.sleeps).toBe(0);
    expect(state.clock).toBe(1500);
    expect(limiter.allowedPerSecond).toBeUndefined();
  });

  it('a hard cap (REPORTER_RATE_LIMIT_RPM) spaces requests evenly', async () => {
    const { state, send } = fakeLimiter(600);
    await send(11, 0);
    expect(state.clock).toBe(1000); // 10 gaps of 100 ms
  });

  it('a 429 alone (1 % of answers, at random) leaves the rate alone: nobody else waits', async () => {
    const { limiter, state, send } = fakeLimiter();
    // 100 requests/s for 20 s, one in a hundred answered 429
    for (let n = 0; n < 20; n++) {
      await send(99, 10);
      await send(1, 10, '429');
    }
    expect(limiter.allowedPerSecond).toBeUndefined();
    expect(state.sleeps).toBe(0);
  });

  it('repeated 429s set the rate just under what the server answered; it then grows back until the cap is gone', async () => {
    const { limiter, state, send } = fakeLimiter();
    await send(400, 10); // 100 requests/s for 4 s, all answered
    // then one in five refused (the server lets 80 a second through): repeated
    let repeated = false;
    for (let n = 0; n < 20; n++) {
      await send(4, 10);
      const sent = await limiter.acquire();
      state.clock += 10;
      repeated = limiter.backOff(sent) || repeated;
      if (limiter.allowedPerSecond !== undefined) break;
    }
    expect(repeated).toBe(true);
    // 0.9 × the rate answered over the last 3 s (about 100/s, a few refused): about 90
    expect(limiter.allowedPerSecond!).toBeGreaterThan(80);
    expect(limiter.allowedPerSecond!).toBeLessThan(95);
    // the next requests are spaced at the lowered rate: 90 more take about a second
    const before = state.clock;
    await send(90, 0);
    expect(state.clock - before).toBeGreaterThanOrEqual(950);
    expect(state.clock - before).toBeLessThanOrEqual(1100);
    // each later second with successful answers adds a step, until the cap is dropped
    const rates: number[] = [];
    for (let second = 0; second < 400 && limiter.allowedPerSecond !== undefined; second++) {
      rates.push(limiter.allowedPerSecond);
      state.clock += 1001;
      await send(1, 0);
    }
    expect(limiter.allowedPerSecond).toBeUndefined();
    for (let n = 1; n < rates.length; n++) expect(rates[n]!).toBeGreaterThan(rates[n - 1]!);
    // past the rate that drew the 429s within 10 s (a small step: a server's limit is found again slowly)...
    expect(rates.findIndex((r) => r > 100)).toBeLessThanOrEqual(10);
    expect(rates.length).toBeGreaterThan(100); // ...and the cap dropped gradually, not at once
    // released: no waits any more
    const sleeps = state.sleeps;
    await send(1000, 0);
    expect(state.sleeps).toBe(sleeps);
  });

  it('a server that refuses nearly everything: the rate comes down from what was sent, at least by half', async () => {
    const { limiter, send } = fakeLimiter();
    await send(3, 10);
    await send(30, 10, '429'); // 100 requests/s sent, 3 answered
    expect(limiter.allowedPerSecond!).toBeGreaterThan(1);
    expect(limiter.allowedPerSecond!).toBeLessThan(50);
  });

  it('429s after too few requests to tell a rate leave the rate alone (they still repeat: a shared pause)', async () => {
    const { limiter, send } = fakeLimiter();
    await send(3, 10);
    await send(2, 10, '429');
    const sent = await limiter.acquire();
    expect(limiter.backOff(sent)).toBe(true);
    expect(limiter.allowedPerSecond).toBeUndefined();
  });

  it('requests sent before a decrease do not lower the rate again; one sent after it does', async () => {
    const { limiter, state, send } = fakeLimiter();
    await send(300, 10);
    const inFlight = [1, 2, 3, 4, 5, 6, 7, 8].map(() => limiter.acquire());
    const numbers = await Promise.all(inFlight);
    state.clock += 10;
    for (const sent of numbers) limiter.backOff(sent); // one burst: eight 429s at once
    const lowered = limiter.allowedPerSecond!;
    expect(lowered).toBeGreaterThan(80);
    expect(lowered).toBeLessThan(100);
    await send(1, 10, '429');
    expect(limiter.allowedPerSecond!).toBeLessThan(lowered);
  });
});

describe('Retry-After against the emulator', () => {
  let running: RunningEmulator;
  let arrivals: Arrival[];
  const clients: ReporterHttp[] = [];
  beforeAll(async () => {
    running = await startEmulator({ port: 0, sessions: 50, days: 1, now: TEST_NOW });
    arrivals = recordArrivals(running.emulator);
  });
  afterEach(async () => {
    running.emulator.faults.clear();
    arrivals.length = 0;
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  afterAll(() => running.close());

  /** A client whose log tells when it has decided to retry `awaited` times (the 429s were read). */
  function client(retries = 2, awaited = 1) {
    let seen = 0;
    let retrying!: () => void;
    const retried = new Promise<void>((resolve) => {
      retrying = resolve;
    });
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        if (String(chunk).includes('retrying Reporter API request') && ++seen >= awaited) retrying();
        done();
      },
    });
    const http = new ReporterHttp({
      baseUrl: running.url,
      token: DEFAULT_V1_TOKEN,
      api: 'v1',
      project: 'shop-bot',
      concurrency: 4,
      rateLimitPerMinute: 1_000_000,
      retries,
      backoffBaseMs: 1,
      log: pino({ level: 'warn' }, sink),
    });
    clients.push(http);
    return { http, retried, lines };
  }

  const count = (http: ReporterHttp) => http.json({ method: 'GET', op: 'projects/sessions/count' });
  const labels = (http: ReporterHttp) => http.json({ method: 'GET', op: 'logs/labels/sessions' });

  /**
   * `times` 429s in a row on projects/sessions/count with Retry-After an HTTP-date 2 s ahead (on a server clock
   * `offsetMs` off); another request of the same client is sent once the (last) 429 was read. Returns when each
   * request after the first 429 arrived, in ms after it.
   */
  async function afterThe429s(offsetMs: number, times: number) {
    running.emulator.faults.script({
      type: 'status429',
      path: 'projects/sessions/count',
      retryAfter: 2,
      retryAfterForm: 'date',
      serverClockOffsetMs: offsetMs,
      times,
    });
    const { http, retried } = client(times + 1, times);
    const counts = Array.from({ length: times }, () => count(http));
    await retried;
    const other = labels(http);
    await Promise.all([...counts, other]);
    running.emulator.faults.assertAllFired();
    const limited = arrivals.find((a) => a.fault === 'status429')!;
    const after = arrivals.filter((a) => a.fault !== 'status429');
    const at = (path: string) => after.filter((a) => a.path === path).map((a) => a.at - limited.at);
    return { count: at('projects/sessions/count'), labels: at('logs/labels/sessions') };
  }

  it('an HTTP-date 2 s ahead: the request that drew the 429 waits ~2 s, the client’s others do not', async () => {
    const { count, labels } = await afterThe429s(0, 1);
    expect(count).toHaveLength(1);
    expect(count[0]).toBeGreaterThanOrEqual(1500);
    expect(count[0]).toBeLessThan(20_000);
    expect(labels).toHaveLength(1);
    expect(labels[0]).toBeLessThan(1000);
  });

  it('measures the HTTP-date from the server’s Date header, not the local clock', async () => {
    // the server's clock is an hour behind: from the local clock the date would be long past (no wait)
    const { count } = await afterThe429s(-3_600_000, 1);
    expect(count[0]).toBeGreaterThanOrEqual(1500);
    expect(count[0]).toBeLessThan(20_000);
  });

  it('429s that repeat pause every request of the client until their Retry-After', async () => {
    const { count, labels } = await afterThe429s(0, 3);
    expect(count).toHaveLength(3);
    for (const at of [...count, ...labels]) {
      expect(at).toBeGreaterThanOrEqual(1500);
      expect(at).toBeLessThan(20_000);
    }
  });

  it('seconds work as before, and a wait beyond what a request may wait fails at once, saying so', async () => {
    running.emulator.faults.script({ type: 'status429', path: 'projects/sessions/count', retryAfter: 1 });
    const { http } = client();
    await count(http);
    const limited = arrivals.find((a) => a.fault === 'status429')!;
    expect(arrivals.at(-1)!.at - limited.at).toBeGreaterThanOrEqual(900);

    running.emulator.faults.script({
      type: 'status429',
      path: 'projects/sessions/count',
      retryAfter: 3 * 3600,
      retryAfterForm: 'date',
    });
    const started = Date.now();
    const error = await count(client().http).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(error).toBeInstanceOf(EtlError);
    expect((error as EtlError).kind).toBe('transient');
    expect((error as EtlError).exitCode).toBe(75);
    expect((error as EtlError).message).toMatch(/asks to wait 10800 s \(Retry-After\), more than .*600 s/);
  });
});
