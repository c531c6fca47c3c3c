// Every default a command's --help states for a REPORTER_* setting is the default loadConfig applies (read
// with an empty environment): `sync --help` once said REPORTER_WINDOW_MAX_SESSIONS (5000) while it was 1500.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/cli/command.js';
import { clientsCommand } from '../../src/cli/commands/clients.js';
import { demoCommand } from '../../src/cli/commands/demo.js';
import { emulatorCommand } from '../../src/cli/commands/emulator.js';
import { experimentsCommand } from '../../src/cli/commands/experiments.js';
import { kbCommand } from '../../src/cli/commands/kb.js';
import { labelMessagesCommand } from '../../src/cli/commands/label-messages.js';
import { labelSessionsCommand } from '../../src/cli/commands/label-sessions.js';
import { labelsCommand } from '../../src/cli/commands/labels.js';
import { platformReportCommand } from '../../src/cli/commands/platform-report.js';
import { prompterCommand } from '../../src/cli/commands/prompter.js';
import { pushgateCommand } from '../../src/cli/commands/pushgate.js';
import { reportCommand } from '../../src/cli/commands/report.js';
import { runCommand } from '../../src/cli/commands/run.js';
import { runsCommand } from '../../src/cli/commands/runs.js';
import { scheduleCommand } from '../../src/cli/commands/schedule.js';
import { sqlCommand } from '../../src/cli/commands/sql.js';
import { statsCommand } from '../../src/cli/commands/stats.js';
import { syncCommand } from '../../src/cli/commands/sync.js';
import { loadConfig } from '../../src/config.js';

const COMMANDS: Command[] = [
  clientsCommand,
  demoCommand,
  emulatorCommand,
  experimentsCommand,
  kbCommand,
  labelMessagesCommand,
  labelSessionsCommand,
  labelsCommand,
  platformReportCommand,
  prompterCommand,
  pushgateCommand,
  reportCommand,
  runCommand,
  runsCommand,
  scheduleCommand,
  sqlCommand,
  statsCommand,
  syncCommand,
];

/** The default of each setting as loadConfig applies it, in the unit of the setting. */
function configDefaults(): Record<string, string | number> {
  const c = loadConfig({}, { requireToken: false });
  const withToken = loadConfig({ REPORTER_TOKEN: 'test-token-t' });
  return {
    REPORTER_BASE_URL: withToken.projects[0]!.baseUrl,
    REPORTER_DATA_DIR: c.dataDir,
    REPORTER_CONCURRENCY: c.concurrency,
    // no fixed rate unless set: the help says (none)
    REPORTER_RATE_LIMIT_RPM: c.rateLimitPerMinute ?? 'none',
    REPORTER_TIMEOUT_MS: c.timeoutMs,
    REPORTER_RETRIES: c.retries,
    REPORTER_PAGE_SIZE: c.pageSize,
    REPORTER_LOOKBACK_HOURS: c.lookbackMs / 3_600_000,
    REPORTER_SAFETY_LAG_MINUTES: c.safetyLagMs / 60_000,
    REPORTER_WINDOW_HOURS: c.windowMs / 3_600_000,
    REPORTER_WINDOW_MAX_SESSIONS: c.windowMaxSessions,
    REPORTER_HISTORY_DAYS: c.historyMs / 86_400_000,
    REPORTER_MAX_REJECT_SHARE: c.maxRejectShare,
    REPORTER_LOCK_WAIT_SECONDS: c.lockWaitMs / 1000,
    REPORTER_SQL_TIMEOUT_SECONDS: c.sqlTimeoutMs / 1000,
    REPORTER_TZ: c.timeZone,
    REPORTER_RETENTION_DAYS: c.retentionMs / 86_400_000,
    REPORTER_SHUTDOWN_GRACE_SECONDS: c.shutdownGraceMs / 1000,
    REPORTER_SYNC_DUCKDB_MEMORY_LIMIT: c.syncMemoryLimit,
    REPORTER_SYNC_DUCKDB_THREADS: c.syncThreads,
    REPORTER_WINDOW_MAX_BYTES: c.windowMaxBytes,
    REPORTER_KB_BASE_URL: c.kb.baseUrl,
  };
}

/**
 * The defaults a help text states, as [setting, shown value]: `NAME (v)`, `NAME, v)` and
 * `NAME ... (..., default v)` (the last within one parenthesis after the name, on its line or the next).
 */
function statedDefaults(help: string, settings: readonly string[]): [string, string][] {
  const found: [string, string][] = [];
  for (const name of settings) {
    const direct = new RegExp(`\\b${name}(?:,\\s*|\\s*\\()([^\\s(),|]+)\\)`, 'g');
    const described = new RegExp(`\\b${name}\\b[^()\\n]*\\([^()]*?\\bdefault\\s+([^\\s(),]+)\\)`, 'g');
    for (const m of help.matchAll(direct)) found.push([name, m[1]!]);
    for (const m of help.matchAll(described)) found.push([name, m[1]!]);
  }
  return found;
}

describe('defaults in the help texts', () => {
  it('are the defaults loadConfig applies', () => {
    const defaults = configDefaults();
    const checked: string[] = [];
    for (const command of COMMANDS) {
      for (const [name, shown] of statedDefaults(command.help, Object.keys(defaults))) {
        const expected = defaults[name]!;
        const actual =
          name === 'REPORTER_DATA_DIR'
            ? resolve(shown)
            : name === 'REPORTER_WINDOW_MAX_BYTES'
              ? Number(/^(\d+)MB$/.exec(shown)?.[1]) * 1e6 // a size as the help writes it, e.g. 24MB
              : typeof expected === 'number'
                ? Number(shown)
                : shown;
        expect(actual, `${command.name} --help: ${name} (${shown})`).toBe(expected);
        checked.push(`${command.name}:${name}`);
      }
    }
    // the scan finds what the texts state (a regex that matched nothing would prove nothing)
    expect(checked).toEqual(
      expect.arrayContaining([
        'sync:REPORTER_WINDOW_MAX_SESSIONS',
        'sync:REPORTER_LOOKBACK_HOURS',
        'sync:REPORTER_DATA_DIR',
        'sync:REPORTER_RATE_LIMIT_RPM',
        'sync:REPORTER_WINDOW_MAX_BYTES',
        'sync:REPORTER_SYNC_DUCKDB_MEMORY_LIMIT',
        'sync:REPORTER_SYNC_DUCKDB_THREADS',
        'schedule:REPORTER_TZ',
        'schedule:REPORTER_RETENTION_DAYS',
        'run:REPORTER_SHUTDOWN_GRACE_SECONDS',
        'run:REPORTER_LOCK_WAIT_SECONDS',
        'runs:REPORTER_DATA_DIR',
        // every command whose query runs in the sandbox: sql --timeout, the others' --sql-timeout
        'sql:REPORTER_SQL_TIMEOUT_SECONDS',
        'label-sessions:REPORTER_SQL_TIMEOUT_SECONDS',
        'label-messages:REPORTER_SQL_TIMEOUT_SECONDS',
        'pushgate:REPORTER_SQL_TIMEOUT_SECONDS',
        'kb:REPORTER_SQL_TIMEOUT_SECONDS',
        'prompter:REPORTER_SQL_TIMEOUT_SECONDS',
      ]),
    );
  });

  it('show REPORTER_WINDOW_MAX_SESSIONS as loadConfig reads it with an empty environment', () => {
    const shown = /REPORTER_WINDOW_MAX_SESSIONS \((\d+)\)/.exec(syncCommand.help)?.[1];
    expect(Number(shown)).toBe(loadConfig({}, { requireToken: false }).windowMaxSessions);
  });
});
