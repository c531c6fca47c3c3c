// The shape of a CLI command: name, help text, and run(argv, io) returning an exit code; and its entry in the
// command list (name, one-line summary, and how to load it).
export interface CommandIo {
  /** stdout: data and human output. */
  out(line: string): void;
  /** Resolves once stdout has room again (its reader took what was written): a long output waits for it. */
  drained?(): Promise<void>;
  /** stderr: diagnostics. */
  err(line: string): void;
  isTty: boolean;
  /** Set when a command runs inside another (demo): its stop request, besides the process's own signals. */
  signal?: AbortSignal;
}

export interface Command {
  name: string;
  help: string;
  /** The help of the subcommand `argv` names (`kb sync --help`: kb sync's own), else undefined: `help`. */
  helpFor?(argv: readonly string[]): string | undefined;
  run(argv: string[], io: CommandIo): Promise<number>;
}

/** A command as main.ts lists it: loaded (imported) only when it runs or prints its help. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}
