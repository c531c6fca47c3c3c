// `reporter-etl sync` with a Chat API channel, killed with -9 while it reads the channel's history, then run
// again: the history equals the emulator's Chat API truth, nothing twice; the sync's output names the channel.
// A sync refused by another sync's lease reads neither the Chat API nor the Reporter's data.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultChatApiToken } from '../../../src/emulator/chatapi/channels.js';
import { chatChannelTruth } from '../../../src/emulator/chatapi/chat-truth.js';
import { runCli } from '../../helpers/run-cli.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const TOKEN = defaultChatApiToken('shop-bot');
let h: Harness | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await h?.close();
  h = undefined;
});

describe('reporter-etl sync with a Chat API channel', () => {
  it('killed with -9 while reading the history, then run again: the history is exact', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 1500, days: 3 },
      env: { REPORTER_CHATAPI_CHANNELS: `site=${TOKEN}`, REPORTER_LOCK_WAIT_SECONDS: '30' },
    });
    const e = h.running.emulator;
    const slow = e.faults.script({ type: 'slow', path: 'chatapi/client', delayMs: 300, times: 100_000 });
    child = spawn(process.execPath, ['bin/reporter-etl.js', 'sync'], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...h.env },
      stdio: 'ignore',
    });
    const deadline = Date.now() + 60_000;
    while (slow.fired < 5) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error('the sync never read the history');
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child?.once('exit', r));
    e.faults.clear();

    const again = await runCli(['sync', '--json'], h.env);
    expect(again.code, again.stderr).toBe(0);
    const [channel] = JSON.parse(again.stdout).chatApi;
    expect(channel).toMatchObject({ channel: 'site', status: 'success', error: null });
    const from = Date.parse(channel.from);
    const to = Date.parse(channel.to);
    const truth = chatChannelTruth(e, TOKEN, { from, to });
    const expected = truth.clients
      .flatMap((c) => c.messages.map((m) => ({ ...m, clientId: c.clientId })))
      .filter((m) => Date.parse(m.timestamp) >= from && Date.parse(m.timestamp) < to)
      .map((m) => `${m.clientId} ${m.questionId} ${m.type} ${m.status ?? '-'}`)
      .sort();
    const stored = await runCli(
      [
        'sql',
        '--format',
        'json',
        "select client_id || ' ' || question_id || ' ' || type || ' ' || coalesce(status, '-') as row from chatapi_messages order by 1",
      ],
      h.env,
    );
    expect(stored.code, stored.stderr).toBe(0);
    expect(JSON.parse(stored.stdout).map((r: { row: string }) => r.row)).toEqual(expected);
    // the channel's run is in the run history, as the projects' are
    const runs = JSON.parse(
      (await runCli(['runs', '--json', '--project', 'chatapi:site'], h.env)).stdout,
    ).runs;
    expect(runs[0]).toMatchObject({
      runId: channel.runId,
      job: 'sync',
      project: 'chatapi:site',
      status: 'success',
    });
    const human = await runCli(['sync'], { ...h.env, LOG_LEVEL: 'debug' });
    expect(human.stdout).toMatch(/Chat API site: success · [\d,]+ clients?/);
    // the channel token is a secret: not in any log line, even at debug
    expect(human.stderr).toMatch(/chatapi|Chat API/);
    expect(`${human.stdout}${human.stderr}`).not.toContain(TOKEN.split(':')[1]);
  }, 180_000);

  it('a sync refused by the lease of a running sync of its project makes no Chat API request', async () => {
    h = await createHarness({
      realClock: true,
      emulator: { sessions: 300, days: 3 },
      env: { REPORTER_CHATAPI_CHANNELS: `site=${TOKEN}` },
    });
    const first = await runCli(['sync'], h.env);
    expect(first.code, first.stderr).toBe(0);
    // another sync of shop-bot is running: its run record holds a fresh lease
    await h.withWarehouse((w) =>
      w.startRun({ runId: 'held-by-another-sync', project: 'shop-bot', job: 'sync', trigger: 'manual' }),
    );
    const e = h.running.emulator;
    e.requestLog = [];
    const refused = await runCli(['sync'], h.env);
    expect(refused.code, refused.stdout).toBe(75);
    expect(refused.stderr).toContain('held-by-another-sync');
    expect(refused.stdout).toContain('Chat API site: skipped');
    // only what identifies the project (the v1 token's one project): no Chat API, no Reporter data
    expect(e.requestLog.map((r) => r.url.replace(/\?.*/, ''))).toEqual([
      '/api/v1/reporter/projects/sessions/count',
    ]);
    // with the project configured, not even that
    e.requestLog = [];
    const named = await runCli(['sync'], { ...h.env, REPORTER_PROJECT: 'shop-bot' });
    expect(named.code, named.stdout).toBe(75);
    expect(e.requestLog).toEqual([]);
    e.requestLog = undefined;
  }, 120_000);
});
