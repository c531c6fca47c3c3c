// Process entry of the CLI: runs main() with the real stdout/stderr and sets the exit code. A command returns
// when its work is done or given up (a run that did not stop within the shutdown grace): whatever still
// holds the event loop a second later must not keep the process alive, so the exit is bounded. Every line
// goes out with its control characters escaped (escape-terminal-text.ts): no platform text reaches the terminal raw.
import type { CommandIo } from './command.js';
import { escapeForTerminal } from './escape-terminal-text.js';
import { main } from './main.js';

const io: CommandIo = {
  out: (line) => process.stdout.write(`${escapeForTerminal(line, { keepLines: true })}\n`),
  err: (line) => process.stderr.write(`${escapeForTerminal(line, { keepLines: true })}\n`),
  isTty: Boolean(process.stdout.isTTY),
};

process.exitCode = await main(process.argv.slice(2), io);
setTimeout(() => process.exit(), 1000).unref();
