// Process entry of the CLI: runs main() with the real stdout/stderr and sets the exit code.
import type { CommandIo } from './command.js';
import { main } from './main.js';

const io: CommandIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  isTty: Boolean(process.stdout.isTTY),
};

process.exitCode = await main(process.argv.slice(2), io);
