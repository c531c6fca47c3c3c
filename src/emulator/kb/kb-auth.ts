// Who calls the knowledge base: `Authorization: Bearer <key>` with the administrative key (account
// operations, any project's settings) or a project key (its one project). Missing or unknown keys are 401,
// an expired key 401 (kb.unauthorized.key_expired), a revoked key 403 (kb.forbidden.key_revoked), the wrong
// kind of key 403 (kb.forbidden.key_type). A project key's lastUsedAt moves to the clock on each accepted use.
import type { IncomingHttpHeaders } from 'node:http';
import { KbError } from './kb-error.js';
import { apiKeyStatus, type KbApiKey } from './kb-model.js';
import type { KbAccess } from './kb-router.js';
import type { KbService } from './kb-service.js';

export interface KbCaller {
  /** The project key's record; undefined for the administrative key. */
  key?: KbApiKey;
  projectId?: number;
}

export function authenticateKb(
  kb: KbService,
  headers: IncomingHttpHeaders,
  access: KbAccess,
  now: number,
): KbCaller {
  const header = headers.authorization;
  if (!header)
    throw new KbError(401, 'kb.unauthorized.missing_key', 'Authorization: Bearer <key> is required');
  const value = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  if (value === undefined)
    throw new KbError(401, 'kb.unauthorized.invalid_key', 'the Authorization header must be Bearer <key>');
  if (value === kb.options.adminKey) {
    if (access === 'project')
      throw new KbError(
        403,
        'kb.forbidden.key_type',
        'this operation needs a project key, not the administrative key',
      );
    return {};
  }
  const key = kb.keyByValue(value);
  if (!key || !kb.projects.has(key.projectId))
    throw new KbError(401, 'kb.unauthorized.invalid_key', 'the key is not a key of this service');
  const status = apiKeyStatus(key, now);
  if (status === 'EXPIRED')
    throw new KbError(401, 'kb.unauthorized.key_expired', `API key ${key.id} has expired`);
  if (status === 'REVOKED')
    throw new KbError(403, 'kb.forbidden.key_revoked', `API key ${key.id} was revoked`);
  if (access === 'admin')
    throw new KbError(
      403,
      'kb.forbidden.key_type',
      'this operation needs the administrative key, not a project key',
    );
  key.lastUsedAt = now;
  return { key, projectId: key.projectId };
}
