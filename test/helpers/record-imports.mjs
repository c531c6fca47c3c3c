// A module-loading hook for child processes under test (`node --import ./test/helpers/record-imports.mjs`):
// writes the URL of every module the process loads to stderr, one `imported <url>` line each, and each package
// a require() loads (DuckDB's binding is required, never imported), one `required <name>` line each, so a test
// can prove what a command does not load (test/cli/start-up.test.ts: --help and --version load no unit).
import Module, { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  process.stderr.write('imported ' + resolved.url + '\\n');
  return resolved;
}`)}`,
);

const load = Module._load;
Module._load = function recordRequire(request, ...rest) {
  if (!request.startsWith('.') && !request.startsWith('/') && !request.startsWith('node:'))
    process.stderr.write(`required ${request}\n`);
  return load.call(this, request, ...rest);
};
