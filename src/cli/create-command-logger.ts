// The logger every command uses: the configured LOG_LEVEL and LOG_FORMAT, and every configured token redacted
// from its lines (a token never reaches stderr, whichever project's error is logged, in either format).
import type { Config } from '../config.js';
import { createLogger, type Logger } from '../log.js';

export function createCommandLogger(config: Config): Logger {
  return createLogger({
    level: config.logLevel,
    secrets: config.projects.map((p) => p.token),
    format: config.logFormat,
  });
}
