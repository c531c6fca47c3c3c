// Process entry of the CLI: runs main() with the real stdout/stderr and sets the exit code. A command returns
// when its work is done or given up (a run that did not stop within the shutdown grace): whatever still
// holds the event loop a second later must not keep the process alive, so the exit is bounded. Every line
// goes out with its control characters escaped (escape-terminal-text.ts): no platform text reaches the terminal raw.
// A reader that goes away (`reporter-etl runs | head -2`) ends the process quietly, exit 0, as a closed pipe
// ends a Unix tool: no EPIPE stack.

import { once } from 'node:events';
import { escapeForTerminal } from '../text/escape-terminal-text.js';
import type { CommandIo } from './command.js';
import { main } from './main.js';

/** An error of a write to a pipe whose reader has gone: nothing written after it can be read. */
function isClosedPipe(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED';
}

let stderrOpen = true;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (!isClosedPipe(error)) throw error;
  // what the command still has to say has no reader; its work so far is committed as it goes
  process.exit(0);
});
process.stderr.on('error', (error: NodeJS.ErrnoException) => {
  if (!isClosedPipe(error)) throw error;
  stderrOpen = false; // the output on stdout may still be read: carry on without the diagnostics
});

const io: CommandIo = {
  out: (line) => process.stdout.write(`${escapeForTerminal(line, { keepLines: true })}\n`),
  // a reader slower than the command (or one that reads nothing yet) holds it here, not in memory
  drained: () =>
    process.stdout.writableNeedDrain
      ? once(process.stdout, 'drain').then(() => undefined)
      : Promise.resolve(),
  err: (line) => {
    if (stderrOpen) process.stderr.write(`${escapeForTerminal(line, { keepLines: true })}\n`);
  },
  isTty: Boolean(process.stdout.isTTY),
};

// A command whose work waits on something that can no longer happen (a promise nothing will settle) would
// end with Node's silent exit 13 once the event loop is empty: it says so instead, and fails (exit 1).
let finished = false;
process.on('beforeExit', () => {
  if (finished) return;
  finished = true;
  io.err(
    `reporter-etl ${process.argv[2] ?? ''}: stopped before the command finished (it was waiting on work that can no longer complete; this is a bug, please report it)`,
  );
  process.exitCode = 1;
});

process.exitCode = await main(process.argv.slice(2), io);
finished = true;
setTimeout(() => process.exit(), 1000).unref();
