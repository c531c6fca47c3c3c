// What one platform-report command works with: the injected world (config, project, logger, clock,
// warehouse access), the Reporter client for reports, the task store, and the resolved projectShortName.
// Invariant: the token stays inside ReporterHttp and the download call; nothing here logs or returns it.
import { randomUUID } from 'node:crypto';
import type { Config, ProjectConfig } from '../config.js';
import type { Logger } from '../log.js';
import { reporterHttpOptions } from '../platform/reporter/http-options.js';
import { ReporterHttp } from '../platform/reporter/reporter-http.js';
import { resolveProjectName } from '../platform/reporter/resolve-project.js';
import { thisProcess } from '../process/process-identity.js';
import { type LeaseTiming, leaseTiming } from '../warehouse/lease.js';
import { ReportApi } from './report-api.js';
import { type TaskOwner, type TaskScope, TaskStore, type WithWarehouse } from './task-store.js';

/** Where a task stands, for a progress line (writeCount of totalCount rows). */
export interface TaskProgress {
  id: string;
  kind: string;
  period: string;
  taskId: string | null;
  status: string;
  writeCount: number | null;
  totalCount: number | null;
  phase: 'creating' | 'waiting' | 'downloading' | 'done';
}

export interface PlatformReportContext {
  config: Config;
  project: ProjectConfig;
  log: Logger;
  /** Opens the warehouse for one operation and closes it after (the CLI never holds the lock while waiting). */
  withWarehouse: WithWarehouse;
  /** The clock for records and the default period (epoch ms); Date.now by default. */
  now?: () => number;
  onProgress?: (progress: TaskProgress) => void;
  /** Stops waiting when aborted (the task stays pending). */
  signal?: AbortSignal;
  /** Test hooks: HTTP backoff base, the first legacy poll interval. */
  backoffBaseMs?: number;
  pollIntervalMs?: number;
  /** Test hook: the lease timing of the tasks it waits for (default LEASE, src/warehouse/lease.ts). */
  lease?: Partial<LeaseTiming>;
}

export interface WaitOptions {
  /** Real ms (performance.now() clock) after which waiting stops and tasks stay pending. */
  deadline: number;
  /** Seconds one long poll of async events may block (0..30). */
  pollSeconds: number;
  /** Where downloaded files go (for tasks created now; resumed tasks keep the path decided at creation). */
  outDir: string;
}

export interface ReportSession {
  ctx: PlatformReportContext;
  api: ReportApi;
  store: TaskStore;
  scope: TaskScope;
  /** The resolved projectShortName. */
  project: string;
  now: () => number;
  log: Logger;
  /** This session as a task's owner: a random owner id, and its process (host, PID, boot id, start time). */
  owner: TaskOwner;
  /** This session's owner id in the task leases (random: one process may run several sessions). */
  ownerId: string;
  lease: LeaseTiming;
  sleep(ms: number): Promise<void>;
  /** Downloads need the token itself (bearer on v1); it never leaves this function's arguments. */
  token: string;
  close(): Promise<void>;
}

export async function openReportSession(ctx: PlatformReportContext): Promise<ReportSession> {
  const { config, project: projectConfig } = ctx;
  // two requests in flight are plenty for one report; creates are never retried blindly (see create-task.ts)
  const common = {
    ...reporterHttpOptions(config, projectConfig, { log: ctx.log, backoffBaseMs: ctx.backoffBaseMs }),
    concurrency: 2,
  };
  const http = new ReporterHttp({ ...common, retries: config.retries });
  const createHttp = new ReporterHttp({ ...common, retries: 0 });
  try {
    const project = await resolveProjectName(http, projectConfig);
    if (http.api === 'v1') {
      http.project = project;
      createHttp.project = project;
    }
    const now = ctx.now ?? Date.now;
    const signal = ctx.signal;
    return {
      ctx,
      api: new ReportApi(http, createHttp),
      store: new TaskStore(ctx.withWarehouse, now),
      scope: { baseUrl: projectConfig.baseUrl, api: projectConfig.api, project },
      project,
      now,
      // inside a job (platform-daily) its job is bound already: a second `job` key would repeat in every line
      log: ctx.log.child('job' in ctx.log.bindings() ? { project } : { job: 'platform-report', project }),
      ...ownerOfSession(randomUUID()),
      lease: leaseTiming(ctx.lease),
      token: projectConfig.token,
      sleep: (ms) =>
        new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          const timer = setTimeout(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          }, ms);
          const onAbort = () => {
            clearTimeout(timer);
            reject(signal?.reason);
          };
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      async close() {
        await Promise.all([http.close(), createHttp.close()]);
      },
    };
  } catch (error) {
    await Promise.all([http.close(), createHttp.close()]);
    throw error;
  }
}

/** This process as the owner of the tasks a session waits for. */
function ownerOfSession(ownerId: string): { owner: TaskOwner; ownerId: string } {
  const me = thisProcess();
  return {
    ownerId,
    owner: {
      ownerId,
      ownerPid: me.pid,
      ownerHost: me.host,
      ownerBootId: me.bootId,
      ownerStartTicks: me.startTicks,
    },
  };
}
