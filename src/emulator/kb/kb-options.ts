// Options of the emulated knowledge base service (mounted at `/kb`): how many sources it generates, its
// two default keys (a project key of the generated project, an administrative key of the account) and how
// long a generation takes in real time. Defaults are constants so tests and the CLI can print them.

/** The project key of the generated project: `Authorization: Bearer <it>` reaches that one project. */
export const DEFAULT_KB_PROJECT_KEY = 'emulator-kb-project-key';
/** The administrative key of the account: projects, API keys, access groups (and any project's settings). */
export const DEFAULT_KB_ADMIN_KEY = 'emulator-kb-admin-key';
/** Where the service lives on the emulator's server: `{url}/kb`, operations under `{url}/kb/api/knowledge-hub`. */
export const KB_BASE_PATH = '/kb';
export const KB_API_PREFIX = '/api/knowledge-hub';

export interface KbOptions {
  /** Sources of the generated project (40..200, default 80). */
  sources: number;
  projectKey: string;
  adminKey: string;
  /** Real time a generation takes from submit to FINISHED/FAILED, in ms (default 300). */
  queryProcessingMs: number;
  /** The `generation.rpmLimit` of the generated project's settings (default 600 generations a minute). */
  rpmLimit: number;
}

export function resolveKbOptions(partial: Partial<KbOptions> = {}): KbOptions {
  const sources = Math.round(partial.sources ?? 80);
  if (!(sources >= 40 && sources <= 200))
    throw new Error(`kb.sources: expected 40..200 sources, got ${partial.sources}`);
  return {
    sources,
    projectKey: partial.projectKey ?? DEFAULT_KB_PROJECT_KEY,
    adminKey: partial.adminKey ?? DEFAULT_KB_ADMIN_KEY,
    queryProcessingMs: Math.max(0, partial.queryProcessingMs ?? 300),
    rpmLimit: Math.max(1, Math.round(partial.rpmLimit ?? 600)),
  };
}
