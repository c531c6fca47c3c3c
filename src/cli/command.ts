// The shape of a CLI command: name, one-line summary, help text, and run(argv, io) returning an exit code.
export interface CommandIo {
  /** stdout: data and human output. */
  out(line: string): void;
  /** stderr: diagnostics. */
  err(line: string): void;
  isTty: boolean;
}

export interface Command {
  name: string;
  summary: string;
  help: string;
  run(argv: string[], io: CommandIo): Promise<number>;
}
