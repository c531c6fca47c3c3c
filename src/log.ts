// The only pino() call of the tool: logs to stderr (stdout stays clean for --json data), as JSON or as one
// human line per record (LOG_FORMAT; pretty by default on a terminal), with secrets redacted wherever they could
// appear (headers, tokens, legacy URLs with the token in the path) before either format is written.
import { type DestinationStream, type Logger, pino } from 'pino';
import { formatLogLine } from './format-log-line.js';
import { writeAboveStatusLine } from './status-line.js';

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

/** Replaces every occurrence of the given secrets in a string with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}

export type LogFormat = 'json' | 'pretty';

/** The format when LOG_FORMAT is not set: pretty on a terminal, JSON for pipes, files, cron and tests. */
export function defaultLogFormat(isTty: boolean = Boolean(process.stderr.isTTY)): LogFormat {
  return isTty ? 'pretty' : 'json';
}

/** Where the records go: the file descriptor, each line reshaped if pretty, the progress line kept apart. */
function createDestination(fd: number, format: LogFormat): DestinationStream {
  const sink = pino.destination({ fd, sync: true });
  return {
    write(line: string) {
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
  const secrets = options.secrets ?? [];
  return pino(
    {
      level: options.level ?? process.env['LOG_LEVEL'] ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '***' },
      hooks: {
        logMethod(args, method) {
          const cleaned = args.map((a) => (typeof a === 'string' ? redactSecrets(a, secrets) : a));
          method.apply(this, cleaned as Parameters<typeof method>);
        },
      },
      formatters: {
        log(object) {
          if (secrets.length === 0) return object;
          return JSON.parse(redactSecrets(JSON.stringify(object), secrets)) as Record<string, unknown>;
        },
      },
    },
    createDestination(options.destination ?? 2, options.format ?? defaultLogFormat()),
  );
}

/** A logger that writes nothing: for tests and library callers that bring no logger. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
