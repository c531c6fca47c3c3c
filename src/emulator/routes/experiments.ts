// Placeholder: the experiments operations of the emulator (being written).
import type { Route } from '../route.js';

export function experimentRoutes(): Route[] {
  return [];
}
