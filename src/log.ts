// The only pino() call of the tool: JSON logs to stderr (stdout stays clean for --json data),
// with secrets redacted wherever they could appear (headers, tokens, legacy URLs with the token in the path).
import { type Logger, pino } from 'pino';

export type { Logger };

const REDACT_PATHS = [
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'config.token',
];

/** Replaces every occurrence of the given secrets in a string with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}

export function createLogger(
  options: { level?: string; secrets?: readonly string[]; destination?: number } = {},
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
    pino.destination({ fd: options.destination ?? 2, sync: true }),
  );
}

/** A logger that writes nothing: for tests and library callers that bring no logger. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
