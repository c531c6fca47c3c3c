// Whose spool is left behind, judged by src/process/process-identity.ts: a zombie receiver's spool and one whose pid is
// another process's now (another start time in its name) are left behind at once, though fresh; a live
// receiver's spool stays its own. A spool's name carries its writer's start time.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { thisProcess } from '../../../src/process/process-identity.js';
import { createSpool, isLeftBehind, spoolPid } from '../../../src/sources/webhooks/spool.js';
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

/** A spool file of another receiver, just written (its heartbeat fresh). */
function writeSpool(name: string): string {
  writeFileSync(join(dir, name), '');
  return name;
}

describe('a spool left behind', () => {
  it('is named after its writer: pid and start time', async () => {
    const spool = await createSpool(dir, 1_000);
    try {
      const me = thisProcess();
      expect(spool.name).toBe(`spool-1000-${me.pid}-${me.startTicks}.jsonl`);
      expect(spoolPid(spool.name)).toBe(me.pid);
      expect(isLeftBehind(dir, spool.name)).toBe(false);
    } finally {
      await spool.close();
    }
  });

  it("a zombie receiver's fresh spool (named before start times were) is left behind at once", async () => {
    running = await zombieOwner();
    expect(isLeftBehind(dir, writeSpool(`spool-${Date.now()}-${running.owner.pid}.jsonl`))).toBe(true);
  });

  it("a live receiver's fresh spool is its own; with another start time its pid is someone else's now", async () => {
    running = await liveOwner();
    const { pid, startTicks } = running.owner;
    expect(isLeftBehind(dir, writeSpool(`spool-${Date.now()}-${pid}-${startTicks}.jsonl`))).toBe(false);
    expect(
      isLeftBehind(dir, writeSpool(`spool-${Date.now() + 1}-${pid}-${Number(startTicks) + 1}.jsonl`)),
    ).toBe(true);
  });
});
