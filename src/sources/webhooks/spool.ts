// The receiver's spool: every acknowledged request is first a line in an append-only file, on disk before
// the answer (a kill -9 right after the 200 loses nothing). Requests arriving together share one write and
// one fdatasync (group commit), so durability costs one disk flush per burst, not per request. A spool file
// is named after its process (spool-<start ms>-<pid>-<process start ticks>.jsonl; older ones without the
// ticks) in <REPORTER_DATA_DIR>/webhooks/, and its modification time is its owner's heartbeat: a spool is left
// behind (to be loaded and removed by another receiver) when no spool of this process is open under its name
// and its pid is this process's, or its owner is dead (not running, a zombie, its pid another process's now:
// src/process/process-identity.ts), or it has not touched it for SPOOL_STALE_MS.
import { closeSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { type FileHandle, open, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { makeDirectory } from '../../files/make-directory.js';
import { isPidRunning, judgeOwner, thisProcess } from '../../process/process-identity.js';

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
/** How often an open spool's modification time is refreshed, written to or not. */
const SPOOL_HEARTBEAT_MS = 5_000;
/** A spool nobody touched for this long is left behind, whoever has its pid now. */
export const SPOOL_STALE_MS = 60_000;
/** The paths of the spools this process has open (a process may run several receivers, on other folders). */
const openSpools = new Set<string>();

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
  close(): Promise<void>;
}

export async function createSpool(dir: string, now = Date.now()): Promise<Spool> {
  makeDirectory(dir);
  const { pid, startTicks } = thisProcess();
  const name = `${SPOOL_PREFIX}${now}-${pid}${startTicks === null ? '' : `-${startTicks}`}.jsonl`;
  const path = join(dir, name);
  const handle: FileHandle = await open(path, 'a');
  openSpools.add(path);
  const heartbeat = setInterval(() => {
    const at = new Date();
    utimes(path, at, at).catch(() => undefined);
  }, SPOOL_HEARTBEAT_MS);
  heartbeat.unref();
  let size = 0;
  let writeFailed = false;
  let queue: { line: string; done: () => void; failed: (e: unknown) => void }[] = [];
  let flushing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      const bytes = Buffer.from(batch.map((b) => b.line).join(''));
      try {
        await writeWhole(handle, bytes);
        await handle.datasync();
        size += bytes.length;
        for (const b of batch) b.done();
      } catch (error) {
        // a full disk can leave part of the batch written: cut it off, so the next line starts clean
        await handle.truncate(size).catch(() => undefined);
        writeFailed = true;
        for (const b of batch) b.failed(error);
      }
    }
  };
  const kick = (): void => {
    if (flushing) return;
    flushing = flush().finally(() => {
      flushing = undefined;
      if (queue.length > 0) kick();
    });
  };
  return {
    path,
    name,
    get size() {
      return size;
    },
    get writeFailed() {
      return writeFailed;
    },
    append(record) {
      return new Promise<void>((done, failed) => {
        queue.push({ line: `${JSON.stringify(record)}\n`, done, failed });
        kick();
      });
    },
    async close() {
      clearInterval(heartbeat);
      while (flushing) await flushing;
      await handle.close();
      openSpools.delete(path);
    },
  };
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

/** Whether the spool `name` in `dir` is left behind by its receiver (see the header): to load and remove. */
export function isLeftBehind(dir: string, name: string, now = Date.now()): boolean {
  const path = join(dir, name);
  if (openSpools.has(path)) return false;
  const pid = spoolPid(name);
  if (pid === process.pid || !isPidRunning(pid)) return true;
  // the spool folder is this host's: its writer is judged as a process of this host
  const owner = { host: hostname(), pid, bootId: null, startTicks: spoolStartTicks(name) };
  if (judgeOwner(owner).state === 'dead') return true;
  try {
    return now - statSync(path).mtimeMs > SPOOL_STALE_MS;
  } catch {
    return false;
  }
}

const SPOOL_NAME = /^spool-\d+-(\d+)(?:-(\d+))?\.jsonl$/;

/** The pid that wrote a spool file. */
export function spoolPid(name: string): number {
  return Number(SPOOL_NAME.exec(name)?.[1] ?? 0);
}

/** The start time (field 22 of /proc/<pid>/stat) of the process that wrote a spool file, when its name has it. */
function spoolStartTicks(name: string): number | null {
  const ticks = SPOOL_NAME.exec(name)?.[2];
  return ticks === undefined ? null : Number(ticks);
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
