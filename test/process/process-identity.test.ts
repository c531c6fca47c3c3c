// judgeOwner over real processes of this host: a reaped PID, a zombie and a reused PID are dead at once; a
// live process is alive; another host's owner, or any owner where there is no procfs, is unknown (the
// heartbeat decides). The stat line is read after the last ')' (a command name may hold spaces and ')').
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeOwner, parseProcessStat, thisProcess } from '../../src/process/process-identity.js';
import { type LiveOwner, liveOwner, ownerThatDied, zombieOwner } from '../helpers/owner-processes.js';

let running: LiveOwner | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('parseProcessStat', () => {
  it('counts the fields after the last parenthesis of the command name', () => {
    const rest = Array.from({ length: 50 }, (_, i) => String(i + 4)).join(' ');
    // field 3 is the state; field 22 the start time (here the number 22 sits where field 22 is)
    expect(parseProcessStat(`4242 (a (b) c) d) S ${rest}`)).toEqual({ state: 'S', startTicks: 22 });
    expect(parseProcessStat(`7 (sleep) Z ${rest}\n`)).toEqual({ state: 'Z', startTicks: 22 });
    expect(parseProcessStat('garbage')).toBeUndefined();
  });
});

describe('judgeOwner', () => {
  it('this process is alive and has a boot id and a start time', () => {
    const me = thisProcess();
    expect(me.bootId).toMatch(/^[0-9a-f-]{36}$/);
    expect(me.startTicks).toBeGreaterThan(0);
    expect(judgeOwner(me).state).toBe('alive');
  });

  it('a live process of this host is alive', async () => {
    running = await liveOwner();
    expect(judgeOwner(running.owner)).toEqual({ state: 'alive', reason: 'is running on this host' });
  });

  it('a process that died and was reaped is dead at once', async () => {
    const owner = await ownerThatDied();
    expect(judgeOwner(owner)).toEqual({ state: 'dead', reason: 'is no longer running' });
  });

  it('a zombie (exited, not reaped) is dead, though its PID answers kill(pid, 0)', async () => {
    running = await zombieOwner();
    expect(judgeOwner(running.owner)).toEqual({
      state: 'dead',
      reason: 'has exited (a zombie not yet reaped)',
    });
  });

  it('a reused PID (a live PID with another start time) is dead; one of another boot is dead', () => {
    const me = thisProcess();
    expect(judgeOwner({ ...me, startTicks: (me.startTicks ?? 0) + 1 })).toEqual({
      state: 'dead',
      reason: `is no longer running (PID ${me.pid} is another process now)`,
    });
    expect(judgeOwner({ ...me, bootId: '00000000-0000-0000-0000-000000000000' })).toEqual({
      state: 'dead',
      reason: 'ran before this host restarted',
    });
  });

  it('another host, an owner without a start time, or no procfs: unknown (the heartbeat decides)', async () => {
    const dead = await ownerThatDied();
    expect(judgeOwner({ ...dead, host: 'another-host' }).state).toBe('unknown');
    expect(judgeOwner({ ...thisProcess(), startTicks: null }).state).toBe('unknown');
    const noProc = mkdtempSync(join(tmpdir(), 'no-proc-'));
    try {
      expect(judgeOwner(dead, noProc)).toEqual({
        state: 'unknown',
        reason: 'cannot be checked without /proc',
      });
      // a procfs that shows a boot id but not the PID: dead
      mkdirSync(join(noProc, 'sys/kernel/random'), { recursive: true });
      writeFileSync(join(noProc, 'sys/kernel/random/boot_id'), `${dead.bootId}\n`);
      expect(judgeOwner(dead, noProc).state).toBe('dead');
    } finally {
      rmSync(noProc, { recursive: true, force: true });
    }
  });
});
