// Placeholder: the clients operations of the emulator (being written).
import type { Route } from '../route.js';

export function clientRoutes(): Route[] {
  return [];
}
