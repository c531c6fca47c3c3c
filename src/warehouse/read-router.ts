// Where a reader's operation runs: the file it has open, else the read service of the writer holding the file
// (read-service-client.ts), else the file it opens itself READ_ONLY. A served read the writer drops midway
// (ReadServiceGone) runs again elsewhere; one too big for the writer's memory makes this reader read the
// file from then on. A writer's router always runs on its own file.
import { writeFileSync } from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Logger } from '../log.js';
import { isOutOfMemory } from './commit-window.js';
import { makeQueryError } from './make-query-error.js';
import { runStatement } from './query-rows.js';
import { copyToParquetSql, type ReadRequest, runReadRequest } from './read-request.js';
import { connectToReadService, type ReadServiceClient, ReadServiceGone } from './read-service-client.js';
import { streamRows } from './stream-rows.js';
import type { SqlParams, StreamedRows } from './warehouse.js';

/** How often a reader tries the writer's read service again before it fails (each failure: the writer left). */
export const MAX_READ_ATTEMPTS = 5;
/**
 * A reader that finds the file locked and no read service (a writer opening the file or letting go of it, or
 * one that cannot serve this user) asks for the file after this long.
 */
export const READER_ASKS_FOR_TURN_AFTER_MS = 1_000;

/** Where a reader's operation runs: a connection to the file it opened, or the writer's read service. */
export type ReadTarget = { local: DuckDBConnection } | { remote: ReadServiceClient };

/** Thrown out of a reader's wait for the file lock: the writer holding it serves reads after all. */
export class FoundReadService extends Error {
  constructor(
    readonly client: ReadServiceClient,
    readonly waitedMs: number,
  ) {
    super('found the read service of the writer');
  }
}

export interface ReadRouterOptions {
  path: string;
  /** A reader asks the writer's service; a writer (false) reads its own file. */
  served: boolean;
  /** The connection of the file this process has open, if it has. */
  openConnection: () => DuckDBConnection | undefined;
  /** Opens the file (waiting for its lock, and calling lookWhileWaiting meanwhile). */
  connect: () => Promise<DuckDBConnection>;
  /** A hold() runs: a served reader keeps one snapshot of the writer's (begin … end). */
  isHolding: () => boolean;
  /** Default: connectToReadService on the warehouse's socket. */
  findReadService?: (() => Promise<ReadServiceClient | undefined>) | undefined;
  socketRoot?: string | undefined;
  log?: Logger | undefined;
}

export interface ReadRouter {
  /** Where the next read runs (a served reader that holds gets its snapshot begun). */
  target(): Promise<ReadTarget>;
  /** While the reader waits for the lock: throws FoundReadService when a writer serves; true: ask for a turn. */
  lookWhileWaiting(waitedMs: number): Promise<boolean>;
  /** Runs a read where target() says; a `parquet` read writes its file at `parquetPath`. */
  read(request: ReadRequest, parquetPath?: string): Promise<unknown>;
  /** Starts a statement's rows where target() says, up to their first chunk. */
  openStream(sql: string, params?: SqlParams): Promise<OpenedStream>;
  /** The end of a hold(): the service whose snapshot is to be let go, if one was begun. */
  takeHeldSnapshot(): ReadServiceClient | undefined;
  close(): void;
}

export interface OpenedStream {
  rows: AsyncGenerator<StreamedRows>;
  first: IteratorResult<StreamedRows>;
}

/** A reader's link to the writer's read service: the connection, its held snapshot, or none from now on. */
interface ServiceLink {
  remote: ReadServiceClient | undefined;
  /** A snapshot was begun there for the running hold(). */
  holding: boolean;
  /** A served read ran out of the writer's memory: this reader asks for the file instead from now on. */
  readTheFile: boolean;
}

export function createReadRouter(options: ReadRouterOptions): ReadRouter {
  const { path, log } = options;
  const link: ServiceLink = { remote: undefined, holding: false, readTheFile: false };
  const findReadService = options.findReadService ?? findReadServiceOf(path, options.socketRoot, log);
  const target = (): Promise<ReadTarget> => routeRead(options, link, findReadService);
  /** Runs `attempt` until it succeeds where it runs, or fails for a reason a retry elsewhere cannot mend. */
  const retryElsewhere = async <T>(attempt: (where: ReadTarget) => Promise<T>): Promise<T> => {
    for (let n = 1; ; n++) {
      try {
        return await attempt(await target());
      } catch (error) {
        if (!canReadElsewhere(link, error) || n >= MAX_READ_ATTEMPTS) throw makeQueryError(path, error);
        leaveReadService(link, error, options);
      }
    }
  };
  return {
    target,
    async lookWhileWaiting(waitedMs) {
      if (link.readTheFile) return true;
      // the writer holding the file serves reads: ask it; ask for the file only if none answers
      const found = await findReadService();
      if (found) throw new FoundReadService(found, waitedMs);
      return waitedMs >= READER_ASKS_FOR_TURN_AFTER_MS;
    },
    read: (request, parquetPath) => retryElsewhere((where) => readAt(where, request, parquetPath)),
    openStream: (sql, params) =>
      retryElsewhere(async (where) => {
        const rows =
          'local' in where ? streamRows(where.local, sql, params) : where.remote.stream(sql, params);
        return { rows, first: await rows.next() };
      }),
    takeHeldSnapshot() {
      if (!link.holding || !link.remote) return undefined;
      link.holding = false;
      return link.remote;
    },
    close() {
      link.remote?.close();
      link.remote = undefined;
    },
  };
}

/** Where a read runs: a writer's own file; a reader's open file, else the writer's service, else the file. */
async function routeRead(
  options: ReadRouterOptions,
  link: ServiceLink,
  findReadService: () => Promise<ReadServiceClient | undefined>,
): Promise<ReadTarget> {
  if (!options.served) return { local: await options.connect() };
  const open = options.openConnection();
  if (open) return { local: open };
  if (link.remote?.closed) link.remote = undefined;
  if (!link.readTheFile) link.remote ??= await findReadService();
  if (!link.remote) {
    try {
      return { local: await options.connect() };
    } catch (error) {
      if (!(error instanceof FoundReadService)) throw error;
      link.remote = error.client;
      options.log?.info(
        { path: options.path, waitedMs: Math.round(error.waitedMs) },
        'reading through the writer after waiting for the file',
      );
    }
  }
  if (options.isHolding() && !link.holding) {
    await link.remote.begin();
    link.holding = true;
  }
  return { remote: link.remote };
}

/** A served read that failed because of where it ran (the writer left, or its memory is too small). */
function canReadElsewhere(link: ServiceLink, error: unknown): boolean {
  return error instanceof ReadServiceGone || (link.remote !== undefined && isOutOfMemory(error));
}

/** Drops the link to the writer's service; after an out-of-memory there, for good. */
function leaveReadService(link: ServiceLink, error: unknown, options: ReadRouterOptions): void {
  if (!(error instanceof ReadServiceGone)) {
    link.readTheFile = true;
    options.log?.warn(
      { path: options.path, err: error },
      'the writer has too little memory for this query (its memory_limit): reading the file once it lets go',
    );
  }
  link.remote?.close();
  link.remote = undefined;
  link.holding = false;
}

/** Runs one read at its target: a `parquet` read writes its file here, or from the bytes the writer sent. */
async function readAt(where: ReadTarget, request: ReadRequest, parquetPath?: string): Promise<unknown> {
  if ('local' in where && request.op === 'parquet' && parquetPath !== undefined)
    return await runStatement(where.local, copyToParquetSql(request.sql, parquetPath));
  if ('local' in where) return await runReadRequest(where.local, request);
  const value = await where.remote.read(request);
  if (parquetPath !== undefined) writeFileSync(parquetPath, value as Uint8Array);
  return value;
}

/** Connects to the writer's read service; a socket this reader does not trust is named once in the log. */
function findReadServiceOf(
  path: string,
  socketRoot: string | undefined,
  log: Logger | undefined,
): () => Promise<ReadServiceClient | undefined> {
  let warnedOfSocket = false;
  return () =>
    connectToReadService(path, {
      socketRoot,
      onRefused: (socketPath, reason) => {
        if (warnedOfSocket) return;
        warnedOfSocket = true;
        log?.warn(
          { path, socketPath },
          `ignoring the read socket ${socketPath}: ${reason}; reading the warehouse file itself`,
        );
      },
    });
}
