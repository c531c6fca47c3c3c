// The receiver's spool: every acknowledged request is first a line in an append-only file, on disk before
// the answer (a kill -9 right after the 200 loses nothing). Requests arriving together share one write and
// one fdatasync (group commit), so durability costs one disk flush per burst, not per request. A spool file
// is named after its process (spool-<start ms>-<pid>.jsonl) in <REPORTER_DATA_DIR>/webhooks/.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';

/** One spooled request: a payload that fits (route chatapi or prompter), or a rejected body with its reason. */
export interface SpoolRecord {
  route: 'chatapi' | 'prompter' | 'reject';
  /** Epoch ms. */
  receivedAt: number;
  /** The parsed body (chatapi, prompter); the raw text, cut at 64 KiB (reject). */
  body: unknown;
  /** Why the body was rejected, and on which route it came. */
  reason?: string;
  endpoint?: string;
}

export const SPOOL_PREFIX = 'spool-';

export function spoolDirOf(dataDir: string): string {
  return join(dataDir, 'webhooks');
}

export interface Spool {
  readonly path: string;
  readonly name: string;
  /** Appends the record; resolves once it is on disk. */
  append(record: SpoolRecord): Promise<void>;
  /** Bytes on disk so far. */
  readonly size: number;
  /** The records on disk not yet taken, and the offset they reach (for the loader). */
  takeDurable(): { records: SpoolRecord[]; offset: number };
  /** Puts records taken back in front (their load failed: the next one tries them again). */
  giveBack(taken: { records: SpoolRecord[]; offset: number }): void;
  close(): Promise<void>;
}

export async function createSpool(dir: string, now = Date.now()): Promise<Spool> {
  mkdirSync(dir, { recursive: true });
  const name = `${SPOOL_PREFIX}${now}-${process.pid}.jsonl`;
  const path = join(dir, name);
  const handle: FileHandle = await open(path, 'a');
  let size = 0;
  let queue: { record: SpoolRecord; line: string; done: () => void; failed: (e: unknown) => void }[] = [];
  let durable: SpoolRecord[] = [];
  let flushing: Promise<void> | undefined;
  const flush = async (): Promise<void> => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      const bytes = Buffer.from(batch.map((b) => b.line).join(''));
      try {
        await handle.write(bytes);
        await handle.datasync();
        size += bytes.length;
        for (const b of batch) durable.push(b.record);
        for (const b of batch) b.done();
      } catch (error) {
        // a full disk can leave part of the batch written: cut it off, so the next line starts clean
        await handle.truncate(size).catch(() => undefined);
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
    append(record) {
      return new Promise<void>((done, failed) => {
        queue.push({ record, line: `${JSON.stringify(record)}\n`, done, failed });
        kick();
      });
    },
    takeDurable() {
      const records = durable;
      durable = [];
      return { records, offset: size };
    },
    giveBack(taken) {
      durable = [...taken.records, ...durable];
    },
    async close() {
      await flushing;
      await handle.close();
    },
  };
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

function spoolStart(name: string): number {
  return Number(/^spool-(\d+)-/.exec(name)?.[1] ?? 0);
}

/** The pid that wrote a spool file. */
export function spoolPid(name: string): number {
  return Number(/^spool-\d+-(\d+)\.jsonl$/.exec(name)?.[1] ?? 0);
}

/**
 * The complete records of a spool file after byte `from`, with the offset after each; a last line without
 * its newline (cut by a crash before its flush: never acknowledged) is left out.
 */
export function readSpool(path: string, from = 0): { record: SpoolRecord; end: number }[] {
  const text = readFileSync(path);
  const records: { record: SpoolRecord; end: number }[] = [];
  let start = from;
  for (;;) {
    const newline = text.indexOf(10, start);
    if (newline < 0) break;
    const line = text.subarray(start, newline).toString('utf8');
    start = newline + 1;
    if (line.trim() === '') continue;
    let record: SpoolRecord;
    try {
      record = JSON.parse(line) as SpoolRecord;
    } catch {
      // not a whole line (a write cut short and not truncated): it was never acknowledged
      continue;
    }
    records.push({ record, end: start });
  }
  return records;
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
  mkdirSync(dir, { recursive: true });
  const probe = join(dir, `.probe-${process.pid}`);
  closeSync(openSync(probe, 'w'));
  unlinkSync(probe);
}
