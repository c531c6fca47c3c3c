#!/usr/bin/env node
// Runs npm scripts side by side (`node scripts/run-in-parallel.mjs typecheck lint build:emit`): `npm test`'s checks
// are single-threaded compilers, so on two cores they finish in the time of the longest instead of the sum.
// Each script's output is printed whole when it ends (never interleaved); the exit code is the first failure's.
import { spawn } from 'node:child_process';

const npm = process.env.npm_execpath;
const run = (script) =>
  new Promise((resolve) => {
    const started = Date.now();
    const [command, args] = npm
      ? [process.execPath, [npm, 'run', '-s', script]]
      : ['npm', ['run', '-s', script]];
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const status = code === 0 ? 'ok' : `failed (${signal ?? `exit ${code}`})`;
      process.stdout.write(
        `${output}${output === '' || output.endsWith('\n') ? '' : '\n'}> ${script}: ${status} in ${seconds} s\n`,
      );
      resolve(code ?? 1);
    });
  });

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: node scripts/run-in-parallel.mjs <npm script> [<npm script> ...]');
  process.exit(2);
}
const codes = await Promise.all(scripts.map(run));
process.exit(codes.find((code) => code !== 0) ?? 0);
