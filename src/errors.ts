// One error base for the whole tool: a stable `code`, a `kind` that says whether trying again can help,
// and the exit code the CLI maps it to. Lower errors are kept as `cause`, never replaced. Every code is one of
// the catalogue in error-codes.ts (docs/errors.md lists them).
import type { ErrorCode } from './error-codes.js';

export type ErrorKind = 'terminal' | 'transient' | 'skippable' | 'usage';

export const EXIT = { ok: 0, failed: 1, usage: 2, partial: 3, tryLater: 75 } as const;

export class EtlError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;

  constructor(code: ErrorCode, message: string, options: { kind?: ErrorKind; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'EtlError';
    this.code = code;
    this.kind = options.kind ?? 'terminal';
  }

  get exitCode(): number {
    if (this.kind === 'usage') return EXIT.usage;
    if (this.kind === 'transient') return EXIT.tryLater;
    return EXIT.failed;
  }
}

/** A wrong command line or setting: names what the user must change. Exit code 2. */
export class UsageError extends EtlError {
  constructor(message: string, code: ErrorCode = 'usage') {
    super(code, message, { kind: 'usage' });
    this.name = 'UsageError';
  }
}

/** The error and its causes, outermost first, five at the most (a cause chain is never followed further). */
export function errorChain(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let e = error; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}
