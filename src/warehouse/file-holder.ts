// The holder of the warehouse's DuckDB file inside one process, as an explicit state machine:
// closed → opening → open → closing → closed (a failed open goes back to closed). It owns the open file
// (instance and connection): how it is opened is given (openDatabaseFile, migrations), and a writer's file is
// checkpointed on DuckDB's threads before it is closed. A move the machine does not allow throws.
import type { Logger } from '../log.js';
import type { OpenDatabaseFile } from './open-database-file.js';

export type FileHolderState = 'closed' | 'opening' | 'open' | 'closing';

/** The moves the holder allows: a second open while one runs, or a close of a file not open, is a bug. */
const NEXT_STATES: Record<FileHolderState, readonly FileHolderState[]> = {
  closed: ['opening'],
  opening: ['open', 'closed'],
  open: ['closing'],
  closing: ['closed'],
};

/** A move the holder does not allow (a programming error, never a user's). */
export class IllegalFileTransition extends Error {
  constructor(
    readonly from: FileHolderState,
    readonly to: FileHolderState,
  ) {
    super(`the warehouse file cannot go from ${from} to ${to}`);
    this.name = 'IllegalFileTransition';
  }
}

export interface FileHolderOptions<F extends OpenDatabaseFile = OpenDatabaseFile> {
  /** Opens the file: waits for the lock, migrates or checks it (it releases what it opened when it fails). */
  openFile: () => Promise<F>;
  /** Runs once the file is open (a writer starts serving reads); what it throws leaves the file open. */
  onOpen?: ((file: F) => Promise<void>) | undefined;
  /** A writer's file with changes: CHECKPOINT it before the close (which would do it on the calling thread). */
  checkpoint: boolean;
  /** Called as closing starts, and awaited before the checkpoint (a writer stops serving reads). */
  beforeRelease?: (() => Promise<void>) | undefined;
  log?: Logger | undefined;
}

export interface FileHolder<F extends OpenDatabaseFile = OpenDatabaseFile> {
  readonly state: FileHolderState;
  /** The open file; undefined unless the state is `open`. */
  readonly file: F | undefined;
  /** closed → opening → open; waits for a closing to end first. */
  open(): Promise<F>;
  /** open → closing → closed: at once without a checkpoint, else once the checkpoint and close are done. */
  startClosing(): void;
  /** Resolves once no closing runs (its failure, if any, rejects it). */
  whenClosed(): Promise<void>;
}

export function createFileHolder<F extends OpenDatabaseFile>(options: FileHolderOptions<F>): FileHolder<F> {
  let state: FileHolderState = 'closed';
  let file: F | undefined;
  let closing: Promise<void> | undefined;
  const move = (to: FileHolderState): void => {
    if (!NEXT_STATES[state].includes(to)) throw new IllegalFileTransition(state, to);
    state = to;
  };
  const letGo = (held: F): void => {
    if (!options.checkpoint) {
      held.release();
      move('closed');
      return;
    }
    const released = (async () => {
      await options.beforeRelease?.();
      await checkpointAndRelease(held, options.log);
    })();
    const settled = released.finally(() => {
      move('closed');
      if (closing === settled) closing = undefined;
    });
    closing = settled;
    settled.catch(() => undefined);
  };
  return {
    get state() {
      return state;
    },
    get file() {
      return state === 'open' ? file : undefined;
    },
    async open() {
      if (state === 'closing') await closing?.catch(() => undefined);
      move('opening');
      try {
        file = await options.openFile();
      } catch (error) {
        move('closed');
        throw error;
      }
      move('open');
      await options.onOpen?.(file);
      return file;
    },
    startClosing() {
      move('closing');
      const held = file as F;
      file = undefined;
      letGo(held);
    },
    async whenClosed() {
      await closing;
    },
  };
}

/**
 * Closing a file with committed changes checkpoints them into it, and DuckDB's close does that on the calling
 * thread: at 30 windows of a month's sync that blocked the event loop (and the API reads) for ~5 s. The
 * CHECKPOINT statement runs on DuckDB's own threads, so the close that follows has nothing left to do.
 */
async function checkpointAndRelease(file: OpenDatabaseFile, log: Logger | undefined): Promise<void> {
  try {
    await file.connection.run('CHECKPOINT');
  } catch (error) {
    // the close checkpoints (or keeps the write-ahead log for the next open) as it always did
    log?.debug({ err: error }, 'checkpoint before closing the warehouse failed');
  }
  file.release();
}
