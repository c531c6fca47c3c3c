// The only pino() call of the tool: logs to stderr (stdout stays clean for --json data), as JSON or as one
// human line per record (LOG_FORMAT; pretty by default on a terminal). Secrets are redacted on the serialized
// line (redact-secrets.ts: every escaped form), after pino's serializers (an error keeps its message, code,
// stack and cause) and before either format is written; token and header fields are censored by pino.
import { type DestinationStream, type Logger, pino } from 'pino';
import { redactJsonLine, secretsMatcher } from './secrets/redact-secrets.js';
import { formatLogLine } from './text/format-log-line.js';
import { writeAboveStatusLine } from './text/status-line.js';

export type { Logger };

const REDACT_PATHS = [
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'config.token',
  // a knowledge base API key's value (its metadata is logged, never the key)
  'key',
  '*.key',
  'apiKey.key',
];

export type LogFormat = 'json' | 'pretty';

/** The format when LOG_FORMAT is not set: pretty on a terminal, JSON for pipes, files, cron and tests. */
export function defaultLogFormat(isTty: boolean = Boolean(process.stderr.isTTY)): LogFormat {
  return isTty ? 'pretty' : 'json';
}

/**
 * Where the records go: the file descriptor, each line redacted, then reshaped if pretty, the progress line
 * kept apart.
 */
function createDestination(fd: number, format: LogFormat, secrets: readonly string[]): DestinationStream {
  const sink = pino.destination({ fd, sync: true });
  const matcher = secretsMatcher(secrets);
  return {
    write(serialized: string) {
      const line = matcher === undefined ? serialized : redactJsonLine(serialized, matcher);
      const text = format === 'pretty' ? formatLogLine(line) : line;
      if (fd === 2) writeAboveStatusLine(() => sink.write(text));
      else sink.write(text);
    },
  };
}

export function createLogger(
  options: {
    level?: string;
    secrets?: readonly string[];
    destination?: number;
    format?: LogFormat | undefined;
  } = {},
): Logger {
  return pino(
    {
      level: options.level ?? process.env['LOG_LEVEL'] ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '***' },
    },
    createDestination(options.destination ?? 2, options.format ?? defaultLogFormat(), options.secrets ?? []),
  );
}

/** A logger that writes nothing: for tests and library callers that bring no logger. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
