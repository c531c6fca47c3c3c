// The receiver's spool: every acknowledged request is first a line in an append-only file, on disk before
// the answer (a kill -9 right after the 200 loses nothing). Requests arriving together share one write and
// one fdatasync (group commit), so durability costs one disk flush per burst, not per request. A spool file
// is named after its process (spool-<start ms>-<pid>-<process start ticks>.jsonl) in
// <REPORTER_DATA_DIR>/webhooks/ and claimed by its writer while it lives (spool-claim.ts). Invariant: a
// receiver writes into, and acknowledges from, only a spool that is still its own: before each write and
// after each flush it checks that the file at the spool's name is the one it opened and its claim holds.
import { closeSync, fstatSync, lstatSync, openSync, readdirSync, unlinkSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory } from '../../files/make-directory.js';
import { thisProcess } from '../../process/process-identity.js';
import { claimSpool, type SpoolClaim } from './spool-claim.js';

/** One spooled request: a payload that fits (route chatapi or prompter), or a rejected body with its reason. */
export interface SpoolRecord {
  route: 'chatapi' | 'prompter' | 'reject';
  /** Epoch ms. */
  receivedAt: number;
  /** The parsed body (chatapi: without the objects' tokens; prompter); the raw text, redacted, cut at 64 KiB (reject). */
  body: unknown;
  /** chatapi: the channel of each object (its token's name in REPORTER_CHATAPI_CHANNELS, else null). */
  channels?: (string | null)[];
  /** Why the body was rejected, and on which route it came. */
  reason?: string;
  endpoint?: string;
}

/** What of a rejected body (and of a record refused at load) is kept in etl_rejects. */
export const MAX_KEPT_BYTES = 64 * 1024;

export const SPOOL_PREFIX = 'spool-';

export function spoolDirOf(dataDir: string): string {
  return join(dataDir, 'webhooks');
}

export interface Spool {
  readonly path: string;
  readonly name: string;
  /** Appends the record; resolves once it is on disk. */
  append(record: SpoolRecord): Promise<void>;
  /**
   * Bytes on disk so far: every line before this offset was flushed (fdatasync) and acknowledged. The loader
   * reads the records back from the file up to it; the spool keeps none of them in memory.
   */
  readonly size: number;
  /** Whether a write failed (a full disk): the receiver replaces the spool once it is loaded, freeing its room. */
  readonly writeFailed: boolean;
  /**
   * Why the spool is no longer this receiver's (its file removed or replaced, its claim gone), checked now;
   * undefined while it is. Once lost, every append fails with SpoolLost and nothing more is written to it.
   */
  checkOwned(): string | undefined;
  /** Appends lines (whole, each ending with a newline) as they are: what a lost spool had acknowledged. */
  appendLines(text: string): Promise<void>;
  /** Up to `maxBytes` of the acknowledged bytes from `offset`, read from the file this spool opened. */
  readAcknowledged(offset: number, maxBytes: number): Promise<Buffer>;
  /** Flushes and closes the file; the spool stays claimed until release(). */
  close(): Promise<void>;
  /** Stops claiming the spool: after its file was loaded and removed, or when it was lost. */
  release(): Promise<void>;
}

/** An append refused because the spool is no longer this receiver's: nothing of it was acknowledged. */
export class SpoolLost extends Error {
  constructor(name: string, reason: string) {
    super(`the webhook spool ${name} is no longer this receiver's: ${reason}`);
    this.name = 'SpoolLost';
  }
}

export async function createSpool(dir: string, now = Date.now()): Promise<Spool> {
  makeDirectory(dir);
  const { pid, startTicks } = thisProcess();
  const name = `${SPOOL_PREFIX}${now}-${pid}${startTicks === null ? '' : `-${startTicks}`}.jsonl`;
  const path = join(dir, name);
  // claimed before the file exists: no other receiver ever sees this spool without its claim
  const claim = await claimSpool(dir, name);
  let handle: FileHandle;
  try {
    handle = await open(path, 'ax+'); // read too: a lost spool's lines are copied from it
  } catch (error) {
    await claim.release();
    throw error;
  }
  const opened = fstatSync(handle.fd);
  let size = 0;
  let writeFailed = false;
  let lost: string | undefined;
  const checkOwned = (): string | undefined => {
    lost ??= ownershipLost(path, opened, claim);
    return lost;
  };
  let queue: { line: string; done: () => void; failed: (e: unknown) => void }[] = [];
  let flushing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      // never written into, nor acknowledged from, a spool that is no longer ours
      if (checkOwned()) {
        for (const b of batch) b.failed(new SpoolLost(name, lost!));
        continue;
      }
      const bytes = Buffer.from(batch.map((b) => b.line).join(''));
      try {
        await writeWhole(handle, bytes);
        await handle.datasync();
      } catch (error) {
        // a full disk can leave part of the batch written: cut it off, so the next line starts clean
        await handle.truncate(size).catch(() => undefined);
        writeFailed = true;
        for (const b of batch) b.failed(error);
        continue;
      }
      if (checkOwned()) {
        for (const b of batch) b.failed(new SpoolLost(name, lost!));
        continue;
      }
      size += bytes.length;
      for (const b of batch) b.done();
    }
  };
  const kick = (): void => {
    if (flushing) return;
    flushing = flush().finally(() => {
      flushing = undefined;
      if (queue.length > 0) kick();
    });
  };
  const enqueue = (line: string) =>
    new Promise<void>((done, failed) => {
      queue.push({ line, done, failed });
      kick();
    });
  return {
    path,
    name,
    get size() {
      return size;
    },
    get writeFailed() {
      return writeFailed;
    },
    checkOwned,
    append: (record) => enqueue(`${JSON.stringify(record)}\n`),
    appendLines: enqueue,
    async readAcknowledged(offset, maxBytes) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(maxBytes, size - offset)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      return buffer.subarray(0, bytesRead);
    },
    async close() {
      while (flushing) await flushing;
      await handle.close();
    },
    release: () => claim.release(),
  };
}

/** Why spool `path` (opened as `opened`) is no longer ours, or undefined while it is. */
function ownershipLost(
  path: string,
  opened: { dev: number; ino: number },
  claim: SpoolClaim,
): string | undefined {
  let now: { dev: number; ino: number };
  try {
    now = lstatSync(path);
  } catch {
    return `its file ${path} was removed`;
  }
  if (now.dev !== opened.dev || now.ino !== opened.ino) return `its file ${path} was replaced`;
  return claim.lostReason();
}

/**
 * Writes all of `bytes`: a write to a nearly full disk may take only part of them without an error, and the
 * rest then fails with ENOSPC (a line acknowledged but cut on disk would be lost to the loader, which reads
 * the spool back from its file).
 */
async function writeWhole(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let offset = 0; offset < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten === 0)
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    offset += bytesWritten;
  }
}

/** Spool files in `dir` other than `except`, oldest first. */
export function listSpools(dir: string, except?: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(SPOOL_PREFIX) && n.endsWith('.jsonl') && n !== except)
    .sort((a, b) => spoolStart(a) - spoolStart(b));
}

/** When a spool file's receiver started (epoch ms, from its name). */
export function spoolStart(name: string): number {
  return Number(/^spool-(\d+)-/.exec(name)?.[1] ?? 0);
}

const SPOOL_NAME = /^spool-\d+-(\d+)(?:-(\d+))?\.jsonl$/;

/** The pid that wrote a spool file. */
export function spoolPid(name: string): number {
  return Number(SPOOL_NAME.exec(name)?.[1] ?? 0);
}

export function removeSpool(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/** Whether a file can be created in `dir` (a receiver fails at start on a read-only data directory). */
export function assertSpoolWritable(dir: string): void {
  makeDirectory(dir);
  const probe = join(dir, `.probe-${process.pid}`);
  closeSync(openSync(probe, 'w'));
  unlinkSync(probe);
}
