// Label and comment operations of the emulator: the message label catalogue (labels and groups), the session
// label catalogue, labels and comments people put on records (one by one, by list, in bulk). Every change
// goes through ProjectState and bumps its version, so later reads (sessions, messages, stats) see it.
import type { Route } from '../route.js';
import { labelAssignmentRoutes } from './labels-assign.js';
import { messageLabelCatalogueRoutes } from './labels-message-catalogue.js';
import { sessionLabelCatalogueRoutes } from './labels-session-catalogue.js';

export function labelRoutes(): Route[] {
  return [...messageLabelCatalogueRoutes(), ...sessionLabelCatalogueRoutes(), ...labelAssignmentRoutes()];
}
