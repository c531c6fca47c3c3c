// The emulator as a remote platform: every API answer waits `latencyMs` (the round trip of a platform 40–150 ms
// away), and the gateway's rate limit (rate-limit.ts: a token bucket of `rateLimitRps` a second with a burst of
// one second's requests) answers 429 with Retry-After beyond it. Set at start (the options, `reporter-etl
// emulator --latency-ms N --rate-limit-rps N`) or while running (POST /__emulator/remote), by tests and the bench.
// Invariant: control endpoints never wait and are never limited.
import { badParameter } from './api-error.js';
import type { Emulator } from './emulator.js';
import { requireObject } from './params.js';
import { ServerRateLimit } from './rate-limit.js';
import type { Route } from './route.js';

export interface RemoteSettings {
  /** Real ms every API request waits before it is handled (0: none). */
  latencyMs: number;
  /** API requests a second the gateway lets through (bursts of one second's worth); null: no limit. */
  rateLimitRps: number | null;
}

/** The most latency a setting may ask (a minute: longer is a hung server, which the `slow` fault is for). */
const MAX_LATENCY_MS = 60_000;

/** A gateway rate limit of `rps` requests a second, bursts of one second's requests (at least one). */
export function rateLimitOf(rps: number): ServerRateLimit {
  return new ServerRateLimit({ requests: rps, perMs: 1000 });
}

/** The emulator's remote behaviour now. */
export function remoteSettings(emulator: Emulator): RemoteSettings {
  const limit = emulator.rateLimit?.options;
  return {
    latencyMs: emulator.latencyMs,
    rateLimitRps: limit ? (limit.requests * 1000) / limit.perMs : null,
  };
}

/** Changes what `changes` names (a new rate limit starts with a full bucket; null lifts it). */
export function applyRemoteSettings(emulator: Emulator, changes: Partial<RemoteSettings>): RemoteSettings {
  if (changes.latencyMs !== undefined) emulator.latencyMs = changes.latencyMs;
  if (changes.rateLimitRps !== undefined)
    emulator.rateLimit = changes.rateLimitRps === null ? undefined : rateLimitOf(changes.rateLimitRps);
  return remoteSettings(emulator);
}

/** A control request's body read as settings, each checked (a 400 naming the field at fault). */
export function readRemoteSettings(body: unknown): Partial<RemoteSettings> {
  const fields = requireObject(body ?? {});
  for (const key of Object.keys(fields))
    if (key !== 'latencyMs' && key !== 'rateLimitRps')
      throw badParameter(key, 'unknown setting: expected latencyMs or rateLimitRps');
  const latency = fields['latencyMs'];
  const rps = fields['rateLimitRps'];
  if (
    latency !== undefined &&
    (typeof latency !== 'number' || !Number.isInteger(latency) || latency < 0 || latency > MAX_LATENCY_MS)
  )
    throw badParameter('latencyMs', `expected a whole number of ms from 0 to ${MAX_LATENCY_MS}`);
  if (rps !== undefined && rps !== null && (typeof rps !== 'number' || !(rps > 0) || !Number.isFinite(rps)))
    throw badParameter('rateLimitRps', 'expected a positive number of requests a second, or null for none');
  return {
    ...(latency === undefined ? {} : { latencyMs: latency as number }),
    ...(rps === undefined ? {} : { rateLimitRps: rps as number | null }),
  };
}

/** GET and POST /__emulator/remote: the latency and the rate limit, read and changed. */
export function listRemoteRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'remote',
      op: 'remote',
      handler: (ctx) => ({ body: remoteSettings(ctx.emulator) }),
    },
    {
      method: 'POST',
      path: 'remote',
      op: 'setRemote',
      handler: (ctx) => ({ body: applyRemoteSettings(ctx.emulator, readRemoteSettings(ctx.body)) }),
    },
  ];
}
