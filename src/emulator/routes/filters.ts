// Placeholder: the filters operations of the emulator (being written).
import type { Route } from '../route.js';

export function filterRoutes(): Route[] {
  return [];
}
