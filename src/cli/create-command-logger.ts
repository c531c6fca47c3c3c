// The logger every command uses: the configured LOG_LEVEL and LOG_FORMAT (defaults by terminal or not), and every configured secret redacted
// from its lines (the values of the settings the units mark secret: collect-secrets.ts), in either format.
import type { Config } from '../config.js';
import { createLogger, defaultLogFormat, type Logger } from '../log.js';
import { collectSecrets } from './collect-secrets.js';

/**
 * Without LOG_LEVEL, a command on a terminal (pretty lines) logs warnings and errors only: its progress line
 * and result lines are its output, and info lines would repeat them. `onTerminal` overrides that for a
 * command whose info lines are what a person watches (schedule). Pipes, files and cron get info in JSON.
 */
export function createCommandLogger(config: Config, options: { onTerminal?: 'info' | 'warn' } = {}): Logger {
  const format = config.logFormat ?? defaultLogFormat();
  return createLogger({
    level: config.logLevel ?? (format === 'pretty' ? (options.onTerminal ?? 'warn') : 'info'),
    secrets: collectSecrets(config),
    format,
  });
}
