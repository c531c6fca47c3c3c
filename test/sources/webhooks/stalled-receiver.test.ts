// Two receivers on one data folder, as real processes (issue 43, item 1): the first is stopped with a real
// SIGSTOP while the second starts and takes requests, then resumes and takes more; or the second runs with
// its clock 5 minutes ahead. Every request either answered 200 is in the warehouse once both stopped.
// A stopped process touches nothing, so the stall's length is what its spool's modification time says: the
// stall lasts WEBHOOKS_STALL_TEST_MS (3 s unless set), and while it lasts the spool's time is set back past
// the minute after which a receiver used to take a spool nobody touched (set the variable to 65000 or more
// to wait that minute for real instead).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';

const STALL_MS = Number(process.env['WEBHOOKS_STALL_TEST_MS'] ?? 3_000);
/** How long the old rule let a spool go untouched before another receiver took it. */
const OLD_ABANDONED_AFTER_MS = 60_000;

let dir: string;
let env: Record<string, string>;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-stall-'));
  env = { REPORTER_DATA_DIR: dir, REPORTER_LOCK_WAIT_SECONDS: '20' };
});
afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.signalCode === null && child.exitCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A preload that sets the process's clock `offsetMs` ahead (Date.now and new Date()). */
function clockAhead(offsetMs: number): string {
  const path = join(dir, 'clock-ahead.mjs');
  writeFileSync(
    path,
    `const RealDate = Date;
class AheadDate extends RealDate {
  constructor(...args) { if (args.length === 0) super(RealDate.now() + ${offsetMs}); else super(...args); }
  static now() { return RealDate.now() + ${offsetMs}; }
}
globalThis.Date = AheadDate;
`,
  );
  return path;
}

/** A receiver process on the data folder, loading every `loadSeconds`; resolves once it listens. */
async function startReceiver(
  loadSeconds: number,
  preload?: string,
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(
    process.execPath,
    [...(preload ? ['--import', preload] : []), 'bin/reporter-etl.js', 'webhooks', '--port', '0', '--json'],
    {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env, REPORTER_WEBHOOKS_LOAD_SECONDS: String(loadSeconds) },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let output = '';
  child.stderr?.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
      if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]!).url);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  return { child, url, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once('exit', resolve),
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Posts questions `from` … `to - 1` one by one; the ids answered 200. */
async function send(url: string, from: number, to: number): Promise<string[]> {
  const acknowledged: string[] = [];
  for (let i = from; i < to; i++) {
    const response = await fetch(`${url}/webhooks/chatapi`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          clientId: `c-${i}`,
          questionId: `q-${i}`,
          data: { answer: `a-${i}` },
          timestamp: '2026-11-20T09:30:00',
        },
      ]),
    });
    await response.arrayBuffer();
    if (response.status === 200) acknowledged.push(`q-${i}`);
  }
  return acknowledged;
}

async function storedIds(): Promise<string[]> {
  const r = await runCli(
    ['sql', '--format', 'json', 'select question_id from chatapi_webhook_events order by 1'],
    env,
  );
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).map((row: { question_id: string }) => row.question_id);
}

/** The spool files of process `pid` in the data folder. */
function spoolsOf(pid: number): string[] {
  return readdirSync(join(dir, 'webhooks')).filter((n) => n.startsWith(`spool-`) && n.includes(`-${pid}-`));
}

/** Stops both receivers (SIGTERM: each loads what it acknowledged); their exit codes. */
async function stopBoth(...receivers: { child: ChildProcess }[]): Promise<(number | null)[]> {
  for (const { child } of receivers) child.kill('SIGTERM');
  return Promise.all(receivers.map(({ child }) => exited(child)));
}

describe('two receivers on one data folder', () => {
  it(
    'one stopped (SIGSTOP) longer than a minute without a touch, then resumed: no acknowledged event is lost',
    async () => {
      // the first loads nothing by itself before it stops: everything it acknowledged is in its spool
      const first = await startReceiver(600);
      const acknowledged = await send(first.url, 0, 100);
      // stopped once it let go of the warehouse (a second after its start): a process stopped holding the
      // file keeps every other out of it, whatever its spool
      await sleep(2_000);
      first.child.kill('SIGSTOP');
      const stoppedAt = Date.now();
      if (STALL_MS < OLD_ABANDONED_AFTER_MS + 5_000) {
        // what the stall leaves on disk: the stopped process's spool untouched for over a minute
        const past = (Date.now() - OLD_ABANDONED_AFTER_MS - 60_000) / 1000;
        for (const name of spoolsOf(first.child.pid!)) utimesSync(join(dir, 'webhooks', name), past, past);
      }
      const second = await startReceiver(0.2);
      acknowledged.push(...(await send(second.url, 100, 200)));
      // the second loads several times while the first is stopped
      await sleep(Math.max(1_500, STALL_MS - (Date.now() - stoppedAt)));
      first.child.kill('SIGCONT');
      acknowledged.push(...(await send(first.url, 200, 300)));
      acknowledged.push(...(await send(second.url, 300, 400)));
      const codes = await stopBoth(first, second);
      expect(acknowledged).toHaveLength(400);
      expect(await storedIds()).toEqual([...acknowledged].sort());
      expect(codes, `${first.output()}\n${second.output()}`).toEqual([0, 0]);
      expect(readdirSync(join(dir, 'webhooks'))).toEqual([]);
    },
    120_000 + STALL_MS,
  );

  it('the second with its clock 5 minutes ahead: no acknowledged event is lost', async () => {
    const first = await startReceiver(600);
    const acknowledged = await send(first.url, 0, 100);
    const second = await startReceiver(0.2, clockAhead(5 * 60_000));
    acknowledged.push(...(await send(second.url, 100, 200)));
    await sleep(1_500);
    acknowledged.push(...(await send(first.url, 200, 300)));
    await sleep(1_000);
    acknowledged.push(...(await send(first.url, 300, 400)));
    acknowledged.push(...(await send(second.url, 400, 500)));
    const codes = await stopBoth(first, second);
    expect(acknowledged).toHaveLength(500);
    expect(await storedIds()).toEqual([...acknowledged].sort());
    expect(codes, `${first.output()}\n${second.output()}`).toEqual([0, 0]);
    expect(readdirSync(join(dir, 'webhooks'))).toEqual([]);
  }, 120_000);
});
