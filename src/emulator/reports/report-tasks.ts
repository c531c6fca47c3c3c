// Report generation tasks of the emulator (placeholder until the reports module lands).
import type { Emulator } from '../emulator.js';
import type { Route } from '../route.js';

export class ReportTasks {
  readonly emulator: Emulator;
  constructor(emulator: Emulator) {
    this.emulator = emulator;
  }
  routes(): Route[] {
    return [];
  }
  async close(): Promise<void> {}
}
