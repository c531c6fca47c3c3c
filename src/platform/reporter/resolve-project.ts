// Works out the projectShortName a sync writes under: the configured REPORTER_PROJECT, or the one project
// the token can read (projects/sessions/count). A token spanning several projects needs REPORTER_PROJECT.
import type { ProjectConfig } from '../../config.js';
import { UsageError } from '../../errors.js';
import { countProjectSessions } from './projects.js';
import type { ReporterHttp } from './reporter-http.js';

export async function resolveProjectName(http: ReporterHttp, config: ProjectConfig): Promise<string> {
  if (config.project !== undefined) return config.project;
  const names = (await countProjectSessions(http)).map((p) => p.projectShortName);
  if (names.length === 1) return names[0]!;
  if (names.length === 0)
    throw new UsageError(
      'REPORTER_PROJECT: the token reads no project; set REPORTER_PROJECT to the projectShortName',
      'config.project',
    );
  throw new UsageError(
    `REPORTER_PROJECT: the token reads several projects (${names.join(', ')}); set REPORTER_PROJECT to one of them, or list them in REPORTER_CONFIG`,
    'config.project',
  );
}
