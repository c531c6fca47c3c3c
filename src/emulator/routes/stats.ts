// Placeholder: the stats operations of the emulator (being written).
import type { Route } from '../route.js';

export function statsRoutes(): Route[] {
  return [];
}
