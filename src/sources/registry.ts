// The registry of sources: one line per source unit. The table list (tables.ts), the job list
// (jobs/registry.ts), the CLI's list and the log's secret list derive from it. A source never imports it.
import { chatApiSource } from '../chatapi/source.js';
import { kbSource } from '../kb/source.js';
import { prompterSource } from '../prompter/source.js';
import { reporterSource } from '../sync/source.js';
import { webhooksSource } from '../webhooks/source.js';
import type { SourceUnit } from './source-unit.js';

export const SOURCES: readonly SourceUnit[] = [
  reporterSource,
  chatApiSource,
  webhooksSource,
  prompterSource,
  kbSource,
];
