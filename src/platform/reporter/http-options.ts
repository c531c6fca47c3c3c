// The ReporterHttp settings of one configured project: where, which token and generation, and the
// client-wide limits (concurrency, rate, timeout, retries). One place, so every command talks the same way.
import { type Config, type ProjectConfig, projectBaseUrlSetting } from '../../config.js';
import type { Logger } from '../../log.js';
import type { ReporterHttpOptions } from './reporter-http.js';

export function reporterHttpOptions(
  config: Config,
  project: ProjectConfig,
  extra: {
    log?: Logger | undefined;
    backoffBaseMs?: number | undefined;
    stop?: AbortSignal | undefined;
  } = {},
): ReporterHttpOptions {
  return {
    baseUrl: project.baseUrl,
    baseUrlSetting: projectBaseUrlSetting(config.projectsFile, Math.max(0, config.projects.indexOf(project))),
    token: project.token,
    api: project.api,
    project: project.project,
    concurrency: config.concurrency,
    // the Reporter client grows its requests in flight while the server keeps up (src/http/adaptive-concurrency.ts)
    maxConcurrency: config.maxConcurrency,
    rateLimitPerMinute: config.rateLimitPerMinute,
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    ...(extra.log ? { log: extra.log } : {}),
    ...(extra.stop ? { stop: extra.stop } : {}),
    // tests shorten the backoff; the cap keeps its ratio to the base
    ...(extra.backoffBaseMs === undefined
      ? {}
      : { backoffBaseMs: extra.backoffBaseMs, backoffCapMs: extra.backoffBaseMs * 20 }),
  };
}
