// Processes to record as owners in lease tests: one that ran and was reaped (its PID gone), a zombie (exited,
// not reaped by its parent), and a live one; each with the host, boot id and start time thisProcess() would
// have recorded for it. Invariant: every process started here is gone once its cleanup ran.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { type ProcessOwner, readBootId, readProcessStat } from '../../src/process/process-identity.js';

/** The owner record a process would have written for itself (its start time read while it runs). */
function ownerOf(pid: number): ProcessOwner {
  return {
    host: hostname(),
    pid,
    bootId: readBootId(),
    startTicks: readProcessStat(pid)?.startTicks ?? null,
  };
}

/** A process that ran (recorded as an owner while it ran) and was reaped: its PID is gone. */
export async function ownerThatDied(): Promise<ProcessOwner> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  const owner = ownerOf(child.pid!);
  child.kill('SIGKILL');
  await once(child, 'exit'); // node reaps its children: the PID is gone now
  return owner;
}

export interface LiveOwner {
  owner: ProcessOwner;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** A live process of this host recorded as an owner. */
export async function liveOwner(): Promise<LiveOwner> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120_000)'], { stdio: 'ignore' });
  await once(child, 'spawn');
  return {
    owner: ownerOf(child.pid!),
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    },
  };
}

/**
 * A zombie owner: `sh` starts `sleep 0` in the background and becomes `sleep 60` (exec), which never reaps
 * it. The owner is recorded while it runs; stop() kills the parent, and init reaps the zombie.
 */
export async function zombieOwner(): Promise<LiveOwner> {
  const child = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 60'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const pid = Number(line.toString().trim());
  const owner = ownerOf(pid);
  for (let i = 0; i < 300 && readProcessStat(pid)?.state !== 'Z'; i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  if (readProcessStat(pid)?.state !== 'Z') throw new Error(`process ${pid} did not become a zombie`);
  return {
    owner,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    },
  };
}
