// The receiver's spools: the live one (requests are appended to it), and those to load and remove: its own
// after a rotation, and those of receivers that are gone (spool-claim.ts says which). A spool of this
// receiver that is no longer its own (removed or replaced under it: by hand, a cleaner, an older receiver) is
// replaced at once, and what it had acknowledged is copied into the live one from the file it still has open
// (loading a record twice stores it once: load-spool-sql.ts). Invariant: every record answered 200 is in a
// spool this receiver owns until it is loaded.
import { join } from 'node:path';
import type { Logger } from '../../log.js';
import { loadSpoolFile, type SpoolLoader } from './load-spool.js';
import { forgetSpoolStatements } from './load-spool-sql.js';
import {
  createSpool,
  listSpools,
  removeSpool,
  type Spool,
  SpoolLost,
  type SpoolRecord,
  spoolStart,
} from './spool.js';
import { isLeftBehind, removeClaimSocket, removeDeadClaims } from './spool-claim.js';

/** A spool larger than this is replaced by a new one once it is loaded. */
const ROTATE_BYTES = 64 * 1024 * 1024;
/** A lost spool's acknowledged bytes are copied this much at a time (more for a longer line). */
const COPY_CHUNK_BYTES = 1024 * 1024;

export interface ReceiverSpools {
  /** Appends a request to the live spool; resolves once it is on disk in a spool this receiver owns. */
  append(record: SpoolRecord): Promise<void>;
  /** Loads the spools left behind, then the live one up to what it acknowledged; the records loaded. */
  load(loader: SpoolLoader): Promise<number>;
  /** After a last load (no request may come any more): removes the live spool and stops claiming it. */
  close(loader: SpoolLoader): Promise<void>;
  /** Before any request (the receiver could not start): removes the empty live spool, loads nothing. */
  discard(): Promise<void>;
}

export async function openReceiverSpools(options: {
  dir: string;
  now: () => number;
  log: Logger;
}): Promise<ReceiverSpools> {
  const { dir, now, log } = options;
  let spool = await createSpool(dir, now());
  /** Spools to load and remove: this receiver's own (a rotation: still open), and those of gone receivers. */
  const leftovers = new Map<string, Spool | undefined>();
  /** This receiver's spools that are no longer its own: their acknowledged lines go to the live spool. */
  const lost: Spool[] = [];
  /** Spools whose offsets the warehouse no longer needs (copied elsewhere). */
  const forgotten: string[] = [];
  let replacing: Promise<void> | undefined;
  let closing = false;

  const findLeftovers = async (): Promise<void> => {
    for (const name of listSpools(dir, spool.name))
      if (!leftovers.has(name) && (await isLeftBehind(dir, name))) leftovers.set(name, undefined);
  };
  await findLeftovers();
  const nextSpool = () => createSpool(dir, Math.max(now(), spoolStart(spool.name) + 1));

  /** Copies what the lost spools had acknowledged into the live one, then lets them go. */
  const copyLost = async (): Promise<void> => {
    for (const old of [...lost]) {
      await copyAcknowledged(old, spool);
      lost.splice(lost.indexOf(old), 1);
      forgotten.push(old.name);
      await old.close();
      await old.release();
    }
  };
  /** Replaces the live spool `old` once it is found lost (one replacement for every request that found it). */
  const replaceLost = (old: Spool): Promise<void> => {
    if (spool !== old) return replacing ?? Promise.resolve();
    replacing ??= (async () => {
      const reason = old.checkOwned();
      spool = await nextSpool();
      log.error(
        { spool: old.name, reason, replacedBy: spool.name },
        'the webhook spool is no longer this receiver’s: what it acknowledged is copied into a new one',
      );
      lost.push(old);
      await copyLost();
    })().finally(() => {
      replacing = undefined;
    });
    return replacing;
  };

  const loadLeftovers = async (loader: SpoolLoader): Promise<number> => {
    const loaded = await loadLeftoverSpools({ dir, log, loader, leftovers, lost, forgotten });
    await copyLost();
    return loaded;
  };
  // the live spool past ROTATE_BYTES, or one a write failed on (a full disk: 503 until there is room), is
  // replaced once loaded, and loaded to its end as a leftover (its removal makes room at once)
  const rotateIfDue = async (): Promise<boolean> => {
    if (closing || !(spool.size > ROTATE_BYTES || (spool.writeFailed && spool.size > 0))) return false;
    const full = spool;
    try {
      spool = await nextSpool();
    } catch (error) {
      log.warn({ err: error }, 'could not start a new webhook spool: the full one stays in use');
      return false;
    }
    leftovers.set(full.name, full);
    return true;
  };
  const forget = async (loader: SpoolLoader): Promise<void> => {
    for (const name of forgotten.splice(0)) await loader.warehouse.execute(forgetSpoolStatements(name));
  };

  const load = async (loader: SpoolLoader): Promise<number> => {
    if (spool.checkOwned()) await replaceLost(spool);
    await findLeftovers();
    // spools of earlier processes first: their rows came first
    let loaded = await loadLeftovers(loader);
    // the live spool is read back from its file up to what it acknowledged: it keeps no record in memory
    loaded += await loadSpoolFile(loader, spool.path, spool.name, spool.size);
    if (await rotateIfDue()) loaded += await loadLeftovers(loader);
    await forget(loader);
    await removeDeadClaims(dir);
    return loaded;
  };

  return {
    async append(record) {
      await replacing;
      const current = spool;
      try {
        await current.append(record);
      } catch (error) {
        if (!(error instanceof SpoolLost)) throw error;
        await replaceLost(current);
        // once, into the new spool: should that fail too, the request is answered 503 and sent again
        await spool.append(record);
      }
    },
    load,
    async close(loader) {
      closing = true;
      await load(loader);
      await spool.close();
      // a spool lost after the last load had it all loaded: the file now at its name is not ours to remove
      if (!spool.checkOwned()) removeSpool(spool.path);
      await spool.release();
      forgotten.push(spool.name);
      await forget(loader);
    },
    async discard() {
      await spool.close();
      if (!spool.checkOwned()) removeSpool(spool.path);
      await spool.release();
    },
  };
}

/**
 * Loads and removes the spools left behind (those of gone receivers, and this one's own after a rotation,
 * which stop being claimed then); an own spool found lost moves to `lost`. The records loaded.
 */
async function loadLeftoverSpools(state: {
  dir: string;
  log: Logger;
  loader: SpoolLoader;
  leftovers: Map<string, Spool | undefined>;
  lost: Spool[];
  forgotten: string[];
}): Promise<number> {
  const { dir, log, loader, leftovers } = state;
  let loaded = 0;
  for (const [name, own] of [...leftovers]) {
    if (own?.checkOwned()) {
      leftovers.delete(name);
      state.lost.push(own);
      continue;
    }
    const path = join(dir, name);
    const records = await loadGone(loader, path, name);
    if (records > 0 && !own) log.info({ spool: name, records }, 'loaded the spool of an earlier receiver');
    loaded += records;
    removeSpool(path);
    if (own) {
      await own.close();
      await own.release();
    } else removeClaimSocket(dir, name);
    leftovers.delete(name);
    state.forgotten.push(name);
  }
  return loaded;
}

/** Loads a spool left behind; 0 when its file is gone (another receiver loaded and removed it first). */
async function loadGone(loader: SpoolLoader, path: string, name: string): Promise<number> {
  try {
    return await loadSpoolFile(loader, path, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && (error as NodeJS.ErrnoException).path === path)
      return 0;
    throw error;
  }
}

/** Appends every line `from` acknowledged to `to`, reading them from the file `from` still has open. */
async function copyAcknowledged(from: Spool, to: Spool): Promise<void> {
  let offset = 0;
  let want = COPY_CHUNK_BYTES;
  while (offset < from.size) {
    const chunk = await from.readAcknowledged(offset, want);
    if (chunk.length === 0) return;
    const end = chunk.lastIndexOf(10) + 1;
    if (end === 0) {
      want *= 2; // a line longer than the chunk
      continue;
    }
    await to.appendLines(chunk.subarray(0, end).toString('utf8'));
    offset += end;
    want = COPY_CHUNK_BYTES;
  }
}
