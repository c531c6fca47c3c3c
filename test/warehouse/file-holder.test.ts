// The file holder alone, with fake files: its states (closed → opening → open → closing → closed), a writer's
// CHECKPOINT before the release, a reader's release at once, an open that waits for a closing, a failed open
// back to closed, and the moves it refuses.
import { describe, expect, it } from 'vitest';
import { createFileHolder, IllegalFileTransition } from '../../src/warehouse/file-holder.js';
import type { OpenDatabaseFile } from '../../src/warehouse/open-database-file.js';

/** A fake open file that writes what happens to it in `events`. */
function fakeFile(events: string[], name = 'file', failCheckpoint = false): OpenDatabaseFile {
  return {
    instance: {} as OpenDatabaseFile['instance'],
    connection: {
      run: async (sql: string) => {
        events.push(`${name}: ${sql}`);
        if (failCheckpoint) throw new Error('checkpoint failed');
      },
    } as unknown as OpenDatabaseFile['connection'],
    release: () => events.push(`${name}: release`),
  };
}

/** A promise and its resolve, to hold an open or a release where the test wants it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('the file holder', () => {
  it('opens, then checkpoints before releasing a writer’s file, closed once both are done', async () => {
    const events: string[] = [];
    const stopped = gate();
    const holder = createFileHolder({
      openFile: async () => fakeFile(events),
      checkpoint: true,
      beforeRelease: async () => {
        events.push('stop serving');
        await stopped.promise;
      },
    });
    expect(holder.state).toBe('closed');
    const opening = holder.open();
    expect(holder.state).toBe('opening');
    expect(holder.file).toBeUndefined();
    const file = await opening;
    expect(holder.state).toBe('open');
    expect(holder.file).toBe(file);
    holder.startClosing();
    expect(holder.state).toBe('closing');
    expect(holder.file).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['stop serving']);
    stopped.open();
    await holder.whenClosed();
    expect(holder.state).toBe('closed');
    expect(events).toEqual(['stop serving', 'file: CHECKPOINT', 'file: release']);
  });

  it('releases a reader’s file at once, without a checkpoint', async () => {
    const events: string[] = [];
    const holder = createFileHolder({ openFile: async () => fakeFile(events), checkpoint: false });
    await holder.open();
    holder.startClosing();
    expect(holder.state).toBe('closed');
    expect(events).toEqual(['file: release']);
  });

  it('releases the file when its checkpoint fails', async () => {
    const events: string[] = [];
    const holder = createFileHolder({
      openFile: async () => fakeFile(events, 'file', true),
      checkpoint: true,
    });
    await holder.open();
    holder.startClosing();
    await holder.whenClosed();
    expect(holder.state).toBe('closed');
    expect(events).toEqual(['file: CHECKPOINT', 'file: release']);
  });

  it('an open during a closing waits for the release before opening the file again', async () => {
    const events: string[] = [];
    const stopped = gate();
    let opens = 0;
    const holder = createFileHolder({
      openFile: async () => {
        opens++;
        events.push(`open ${opens}`);
        return fakeFile(events, `file ${opens}`);
      },
      checkpoint: true,
      beforeRelease: () => stopped.promise,
    });
    await holder.open();
    holder.startClosing();
    const reopened = holder.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['open 1']);
    stopped.open();
    await reopened;
    expect(holder.state).toBe('open');
    expect(events).toEqual(['open 1', 'file 1: CHECKPOINT', 'file 1: release', 'open 2']);
  });

  it('a failed open goes back to closed, and the next open tries again', async () => {
    let fail = true;
    const holder = createFileHolder({
      openFile: async () => {
        if (fail) throw new Error('locked');
        return fakeFile([]);
      },
      checkpoint: false,
    });
    await expect(holder.open()).rejects.toThrow('locked');
    expect(holder.state).toBe('closed');
    fail = false;
    await holder.open();
    expect(holder.state).toBe('open');
  });

  it('refuses the moves the machine does not allow', async () => {
    const opening = gate();
    const holder = createFileHolder({
      openFile: async () => {
        await opening.promise;
        return fakeFile([]);
      },
      checkpoint: false,
    });
    expect(() => holder.startClosing()).toThrow(IllegalFileTransition);
    const first = holder.open();
    await expect(holder.open()).rejects.toMatchObject({ from: 'opening', to: 'opening' });
    expect(() => holder.startClosing()).toThrow(/from opening to closing/);
    opening.open();
    await first;
    await expect(holder.open()).rejects.toBeInstanceOf(IllegalFileTransition);
    expect(holder.state).toBe('open');
  });

  it('a failure of onOpen leaves the file open (a writer that could not serve reads keeps it)', async () => {
    const holder = createFileHolder({
      openFile: async () => fakeFile([]),
      onOpen: async () => {
        throw new Error('no socket');
      },
      checkpoint: false,
    });
    await expect(holder.open()).rejects.toThrow('no socket');
    expect(holder.state).toBe('open');
  });
});
