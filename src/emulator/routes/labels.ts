// Placeholder: the labels operations of the emulator (being written).
import type { Route } from '../route.js';

export function labelRoutes(): Route[] {
  return [];
}
