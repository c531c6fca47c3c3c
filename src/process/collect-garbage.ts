// A full garbage collection, on purpose, for long runs (the sync between windows, XLSX exports): DuckDB's node
// API frees a result's and a chunk's native memory only when V8 finalizes their JS wrappers, and V8 does not count
// that memory, so without a full collection now and then it piles up (bench/README.md, docs/reports.md).
// Invariant: a collection is skipped only while the process's resident memory is within GROWTH_TO_COLLECT of
// the least it was since the last one: little work since then (a small window, a short slice), little to free.
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * How much the resident memory must have grown since the last collection for the next one to run. A full
 * collection of a large heap costs tens of milliseconds; after a window of a few hundred rows it freed nothing
 * worth that (the test suite ran ~1,000 of them, about 55 ms each).
 */
export const GROWTH_TO_COLLECT = 16 * 1024 * 1024;

let gc: (() => void) | null | undefined;
let collections = 0;
const gate = createCollectionGate();

/** How many full collections collectGarbage has run in this process (a caller that collects every N units
 * of work counts from the last collection of anyone's, not only its own). */
export function collectionsSoFar(): number {
  return collections;
}

/**
 * Runs a full GC when the runtime allows it and the resident memory grew by GROWTH_TO_COLLECT over the least it
 * was since the last one (the first call always runs; createCollectionGate); else nothing. The CLI's bin exposes
 * gc() before the CLI loads, and vitest runs the tests with --expose-gc (vitest.config.ts): the fallback below is
 * for code that imports this module in a process started without the flag.
 */
export function collectGarbage(): void {
  if (!gate.shouldCollect(process.memoryUsage.rss())) return;
  if (gc === undefined) gc = findGc();
  gc?.();
  collections += 1;
  gate.collected(process.memoryUsage.rss());
}

/** The rule of collectGarbage apart from the process, given the resident memory at each call. */
export interface CollectionGate {
  /** Whether to collect now; a skipped call lowers the least memory seen since the last collection. */
  shouldCollect(rss: number): boolean;
  /** A collection ran, leaving `rss`. */
  collected(rss: number): void;
}

/**
 * Collect once the memory is GROWTH_TO_COLLECT above the least it was since the last collection (the first call
 * always collects). The least, not the figure right after a collection: the native memory a collection frees
 * is given back by finalizers after it returns, so that figure can stand well above where the memory settles.
 */
export function createCollectionGate(growth = GROWTH_TO_COLLECT): CollectionGate {
  let least: number | undefined;
  return {
    shouldCollect(rss) {
      if (least === undefined || rss - least >= growth) return true;
      least = Math.min(least, rss);
      return false;
    },
    collected(rss) {
      least = rss;
    },
  };
}

function findGc(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  // fallback only: setting a V8 flag after start is allowed for --expose-gc, but better done at start (the bin)
  try {
    v8.setFlagsFromString('--expose-gc');
    const fn = vm.runInNewContext('gc') as unknown;
    return typeof fn === 'function' ? (fn as () => void) : null;
  } catch {
    return null;
  }
}
