// How a source's indexing moves over the emulator's clock: queued (READY_TO_INGEST) at `queuedAt`,
// PROCESSING from `processingAt`, then INGESTED or FAILED_TO_INGEST (with its error) from `doneAt`.
// A pure function of the run and the time, so the service and the ground truth read the same status and a
// test moves a source along by advancing the clock. Invariant: queuedAt <= processingAt <= doneAt.

export const SOURCE_STATUSES = ['READY_TO_INGEST', 'PROCESSING', 'INGESTED', 'FAILED_TO_INGEST'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

export interface IndexingRun {
  queuedAt: number;
  processingAt: number;
  doneAt: number;
  /** Set when the run ends FAILED_TO_INGEST: the source's lastError. */
  error?: string;
}

/** The status of a run at time `t` (epoch ms of the emulator clock). */
export function indexingStatusAt(run: IndexingRun, t: number): SourceStatus {
  if (t < run.processingAt) return 'READY_TO_INGEST';
  if (t < run.doneAt) return 'PROCESSING';
  return run.error === undefined ? 'INGESTED' : 'FAILED_TO_INGEST';
}

/** Emulator time a source added or replaced through the API waits, then is processed (ms). */
export const API_QUEUE_MS = 30_000;
export const API_PROCESSING_MS = 120_000;

/** The run of a source added or replaced at `now` through the API; `error` when its content cannot be indexed. */
export function apiIndexingRun(now: number, error?: string): IndexingRun {
  return {
    queuedAt: now,
    processingAt: now + API_QUEUE_MS,
    doneAt: now + API_QUEUE_MS + API_PROCESSING_MS,
    ...(error === undefined ? {} : { error }),
  };
}

/** Extensions the emulated indexer reads (as UTF-8 text); any other fails with `unsupported file type`. */
export const INDEXABLE_EXTENSIONS = ['txt', 'md', 'html', 'htm', 'pdf', 'docx', 'csv', 'xlsx', 'json'];

/** Why content cannot be indexed, or undefined when it can. */
export function indexingProblem(name: string, text: string, link?: string): string | undefined {
  if (link !== undefined && /\.invalid$/i.test(new URL(link).hostname))
    return `download failed: ${new URL(link).host} did not answer (HTTP 404)`;
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (!INDEXABLE_EXTENSIONS.includes(ext)) return `unsupported file type .${ext}`;
  if (text.trim() === '') return 'document is empty: no text to index';
  return undefined;
}
