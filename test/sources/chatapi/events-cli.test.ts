// `reporter-etl chatapi-events` as a user runs it: --follow killed with -9 midway, then a plain run, stores
// every event of the channel exactly once (the cursor and the rows commit together); SIGTERM stops a follower
// waiting on a long poll at once, exit 0; no channel configured is a usage error naming the setting.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../../src/emulator/chatapi/channels.js';
import { chatEventsTruth } from '../../../src/emulator/chatapi/chat-truth.js';
import { runCli } from '../../helpers/run-cli.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const TOKEN = defaultChatApiToken('shop-bot');
let h: Harness | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

function spawnCli(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['bin/reporter-etl.js', ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once('exit', resolve),
  );

async function storedCount(env: Record<string, string>): Promise<number> {
  const r = await runCli(['sql', '--format', 'json', 'select count(*) as n from chatapi_events'], env);
  if (r.code !== 0) return -1;
  return JSON.parse(r.stdout)[0].n;
}

describe('reporter-etl chatapi-events', () => {
  it('a follower killed with -9 midway, then a plain run: every event once', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 3000, days: 3, chatApiEventsWaitMs: 300 },
      env: { REPORTER_CHATAPI_CHANNELS: `site=${TOKEN}`, REPORTER_LOCK_WAIT_SECONDS: '30' },
    });
    const e = h.running.emulator;
    const truth = chatEventsTruth(e, TOKEN).length;
    expect(truth).toBeGreaterThan(750);
    // slow answers: the follower is killed between two of them
    e.faults.script({ type: 'slow', path: 'chatapi/events', delayMs: 500, times: 1000 });
    const follower = spawnCli(['chatapi-events', '--follow'], h.env);
    const deadline = Date.now() + 60_000;
    let seen = 0;
    while (seen <= 0 || seen >= truth) {
      if (Date.now() > deadline) throw new Error(`no partial progress to kill (stored ${seen} of ${truth})`);
      await new Promise((r) => setTimeout(r, 200));
      seen = await storedCount(h.env);
    }
    follower.kill('SIGKILL');
    await exited(follower);
    e.faults.clear();
    const rest = await runCli(['chatapi-events', '--json'], h.env);
    expect(rest.code, rest.stderr).toBe(0);
    const result = JSON.parse(rest.stdout);
    expect(result.failures).toEqual([]);
    // times in --json are ISO 8601, as in every JSON output
    for (const channel of result.channels) expect(channel.cursor).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/);
    const stored = await runCli(
      [
        'sql',
        '--format',
        'json',
        'select count(*) as n, count(distinct event_key) as keys from chatapi_events',
      ],
      h.env,
    );
    expect(JSON.parse(stored.stdout)[0]).toEqual({
      n: chatEventsTruth(e, TOKEN).length,
      keys: chatEventsTruth(e, TOKEN).length,
    });
  }, 120_000);

  it('SIGTERM stops a follower waiting on a long poll at once; no channel is a usage error', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 200, days: 3, chatApiEventsWaitMs: 30_000 },
      env: { REPORTER_CHATAPI_CHANNELS: `site=${TOKEN}` },
    });
    const first = await runCli(['chatapi-events'], h.env);
    expect(first.code, first.stderr).toBe(0);
    const e = h.running.emulator;
    const before = e.requestCount;
    const follower = spawnCli(['chatapi-events', '--follow'], h.env);
    // its long poll (of up to 30 s) has reached the emulator: the follower is running and waiting in it
    const deadline = Date.now() + 60_000;
    while (e.requestCount === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 300));
    const stopAt = Date.now();
    follower.kill('SIGTERM');
    expect(await exited(follower)).toBe(0);
    expect(Date.now() - stopAt).toBeLessThan(5_000);

    const none = await runCli(['chatapi-events'], { ...h.env, REPORTER_CHATAPI_CHANNELS: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/REPORTER_CHATAPI_CHANNELS/);
    const unknown = await runCli(['chatapi-events', '--channel', 'nope'], h.env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--channel nope.*has no such channel \(it has site\)/);
  }, 90_000);
});
