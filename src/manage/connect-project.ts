// Connects the management commands to one configured project: picks it (--project, or the only one
// configured), builds the Reporter client from the configuration and works out its projectShortName
// (needed on v1 for experiments and all-for-bot, and as the warehouse's `project`). close() frees sockets.
import type { Config, ProjectConfig } from '../config.js';
import { UsageError } from '../errors.js';
import type { Logger } from '../log.js';
import { reporterHttpOptions } from '../platform/reporter/http-options.js';
import { ReporterHttp } from '../platform/reporter/reporter-http.js';
import { resolveProjectName } from '../platform/reporter/resolve-project.js';

export interface ProjectConnection {
  http: ReporterHttp;
  /** projectShortName: the `project` of the warehouse's rows. */
  project: string;
  projectConfig: ProjectConfig;
  close(): Promise<void>;
}

/** The configured project named `name`, or the only one configured. */
export function pickProject(config: Config, name?: string): ProjectConfig {
  if (name !== undefined) {
    const found = config.projects.find((p) => p.project === name);
    if (!found)
      throw new UsageError(
        `--project ${name}: no configured project has this name (configured: ${
          config.projects.map((p) => p.project ?? '(default)').join(', ') || 'none'
        }; see REPORTER_PROJECT or REPORTER_CONFIG)`,
      );
    return found;
  }
  if (config.projects.length > 1)
    throw new UsageError(
      `several projects are configured (${config.projects.map((p) => p.project ?? '(default)').join(', ')}): choose one with --project NAME`,
    );
  const only = config.projects[0];
  if (!only) throw new UsageError('no project is configured: set REPORTER_TOKEN (or REPORTER_CONFIG)');
  return only;
}

export async function connectProject(
  config: Config,
  options: { project?: string | undefined; log?: Logger; backoffBaseMs?: number } = {},
): Promise<ProjectConnection> {
  const projectConfig = pickProject(config, options.project);
  const http = new ReporterHttp(
    reporterHttpOptions(config, projectConfig, { log: options.log, backoffBaseMs: options.backoffBaseMs }),
  );
  try {
    const project = await resolveProjectName(http, projectConfig);
    if (http.api === 'v1') http.project = project;
    return { http, project, projectConfig, close: () => http.close() };
  } catch (error) {
    await http.close();
    throw error;
  }
}
