// Every reporter operation of the emulator, by API area; the server routes them for both generations.
import type { Route } from '../route.js';
import { clientRoutes } from './clients.js';
import { experimentRoutes } from './experiments.js';
import { filterRoutes } from './filters.js';
import { labelRoutes } from './labels.js';
import { messageRoutes } from './messages.js';
import { sessionRoutes } from './sessions.js';
import { statsRoutes } from './stats.js';

export function reporterRoutes(): Route[] {
  return [
    ...sessionRoutes(),
    ...messageRoutes(),
    ...clientRoutes(),
    ...labelRoutes(),
    ...experimentRoutes(),
    ...filterRoutes(),
    ...statsRoutes(),
  ];
}
