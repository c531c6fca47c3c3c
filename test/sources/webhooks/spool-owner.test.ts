// Whose spool is left behind (spool-claim.ts): a spool whose writer's socket answers is its own, also while
// that process is stopped (SIGSTOP) and whatever the spool's age; once its process is killed, the refused
// socket leaves it behind at once. A spool without a socket (an older receiver's) is judged by
// src/process/process-identity.ts: a zombie's and one whose pid is another process's now (another start time
// in its name) are left behind, a live writer's never, however old. A spool's name carries its writer's
// start time, and a deep data folder still gets its socket.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { thisProcess } from '../../../src/process/process-identity.js';
import { createSpool, spoolPid } from '../../../src/sources/webhooks/spool.js';
import { claimSocketName, isLeftBehind } from '../../../src/sources/webhooks/spool-claim.js';
import { type LiveOwner, liveOwner, zombieOwner } from '../../helpers/owner-processes.js';

let dir: string;
let running: LiveOwner | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'spool-owner-'));
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A spool file of another receiver, just written. */
function writeSpool(name: string): string {
  writeFileSync(join(dir, name), '');
  return name;
}

/** Another process claiming spool `name` as a receiver does: listening on the socket beside it. */
async function claimInAnotherProcess(name: string): Promise<ChildProcess> {
  const socket = join(dir, claimSocketName(name));
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('node:net').createServer((c) => c.destroy()).listen(process.argv[1], () => console.log('ok'))`,
      socket,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await once(child.stdout!, 'data');
  return child;
}

describe('a spool left behind', () => {
  it('is named after its writer: pid and start time', async () => {
    const spool = await createSpool(dir, 1_000);
    try {
      const me = thisProcess();
      expect(spool.name).toBe(`spool-1000-${me.pid}-${me.startTicks}.jsonl`);
      expect(spoolPid(spool.name)).toBe(me.pid);
      expect(existsSync(join(dir, claimSocketName(spool.name)))).toBe(true);
      expect(await isLeftBehind(dir, spool.name)).toBe(false);
    } finally {
      await spool.close();
      await spool.release();
    }
    expect(existsSync(join(dir, claimSocketName(spool.name)))).toBe(false);
  });

  it('a deep data folder (a socket path too long to bind) still gets its claim', async () => {
    const deep = join(dir, 'd'.repeat(60), 'e'.repeat(60));
    mkdirSync(deep, { recursive: true });
    const spool = await createSpool(deep, 1_000);
    try {
      expect(existsSync(join(deep, claimSocketName(spool.name)))).toBe(true);
      expect(spool.checkOwned()).toBeUndefined();
    } finally {
      await spool.close();
      await spool.release();
    }
  });

  it("is its writer's while its socket answers: stopped, untouched for an hour; left once it is killed", async () => {
    const name = writeSpool(`spool-${Date.now()}-${process.pid + 1}-1.jsonl`);
    const hourAgo = Date.now() / 1000 - 3600;
    utimesSync(join(dir, name), hourAgo, hourAgo);
    const writer = await claimInAnotherProcess(name);
    try {
      expect(await isLeftBehind(dir, name)).toBe(false);
      writer.kill('SIGSTOP');
      for (let i = 0; i < 3; i++) expect(await isLeftBehind(dir, name)).toBe(false);
      writer.kill('SIGCONT');
    } finally {
      writer.kill('SIGKILL');
      await once(writer, 'exit');
    }
    expect(await isLeftBehind(dir, name)).toBe(true);
  });

  it("a zombie receiver's fresh spool (named before start times were) is left behind at once", async () => {
    running = await zombieOwner();
    expect(await isLeftBehind(dir, writeSpool(`spool-${Date.now()}-${running.owner.pid}.jsonl`))).toBe(true);
  });

  it("a live older receiver's spool is its own, however old; with another start time its pid is someone else's now", async () => {
    running = await liveOwner();
    const { pid, startTicks } = running.owner;
    const old = writeSpool(`spool-${Date.now()}-${pid}-${startTicks}.jsonl`);
    const hourAgo = Date.now() / 1000 - 3600;
    utimesSync(join(dir, old), hourAgo, hourAgo);
    expect(await isLeftBehind(dir, old)).toBe(false);
    expect(
      await isLeftBehind(dir, writeSpool(`spool-${Date.now() + 1}-${pid}-${Number(startTicks) + 1}.jsonl`)),
    ).toBe(true);
  });
});
