// A micro-benchmark of the log's secret check (src/log.ts over src/secrets/redact-secrets.ts): the cost of one
// serialized log line through redactJsonLine with five secrets configured, for lines of the sync's and the
// receiver's usual shapes without a secret (the common case: written as they are), and with a secret in some
// of its forms (decoded, redacted, written again). Not a bench step (it needs no emulator): run it with
// `npm run build && node dist/bench/redaction-cost.js`; it prints µs per line, the best of 7 rounds.
import { redactJsonLine, secretsMatcher } from '../src/secrets/redact-secrets.js';

/** Five secrets as a configuration holds them: a token, a webhook key, a password, a knowledge base key, an id. */
const SECRETS = [
  'emulator-v1-token-8d7f2c1a9b3e',
  '5f0c8e2a7d914b36a1c0e9f7d2b4a6c8',
  'ch-password-Qx7!',
  'kb_live_3c9a1f7e2d8b4c6a0e5f9d1b7a3c2e8f',
  'push_a81f3c9d2e7b',
];

const line = (fields: Record<string, unknown>, msg: string): string =>
  `${JSON.stringify({ level: 30, time: 1_795_900_000_000, pid: 41_237, hostname: 'etl-host', ...fields, msg })}\n`;

const WITHOUT = {
  'a window committed (170 B)': line(
    { job: 'sync', runId: '2026-11-29T03-12-44-512Z-3f9a1c2d', windowsDone: 7, sessions: 1512 },
    'window committed',
  ),
  'a request retried (330 B)': line(
    {
      op: 'messages/filter',
      attempt: 2,
      waitMs: 452,
      reason: 'POST messages/filter (v1 API): answered 503 Service Unavailable: {"error":"overloaded"}',
      project: 'shop-bot',
    },
    'retrying Reporter API request',
  ),
  'an error with its stack (1.4 KB)': line(
    {
      err: {
        type: 'EtlError',
        code: 'warehouse.locked',
        message: 'the warehouse /srv/etl/data/warehouse.duckdb is held by pid 4242 for 31 s',
        stack: `EtlError: the warehouse is held\n${'    at openDatabaseFile (file:///srv/etl/dist/src/warehouse/open-database-file.js:88:19)\n'.repeat(12)}`,
      },
    },
    'sync failed',
  ),
};

const base64 = (text: string) => Buffer.from(text).toString('base64');
const WITH = {
  'the token as it is': line({ reason: `answered 401 for ${SECRETS[0]}` }, 'refused'),
  'the token in base64 within a text': line(
    { body: base64(`{"echo":"Bearer ${SECRETS[0]}"}`) },
    'a server echoed it',
  ),
  'the password in Basic auth': line(
    { header: `Basic ${base64(`default:${SECRETS[2]}`)}` },
    'a ClickHouse error',
  ),
  'the key in hex': line({ body: Buffer.from(SECRETS[1]!).toString('hex') }, 'a server echoed it'),
  'the token URL-encoded in base64url': line(
    {
      url: `https://x.example/cb?state=${encodeURIComponent(Buffer.from(`t=${SECRETS[0]}`).toString('base64url'))}%26x`,
    },
    'a redirect',
  ),
};

/** µs per call of `work` on `text`: the best of 7 rounds of `rounds` calls. */
function measure(work: (text: string) => string, text: string, rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 7; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) work(text);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1000 / rounds);
  }
  return best;
}

function main(): void {
  const compileStarted = process.hrtime.bigint();
  const matcher = secretsMatcher(SECRETS)!;
  const compileUs = Number(process.hrtime.bigint() - compileStarted) / 1000;
  const check = (text: string) => redactJsonLine(text, matcher);
  // V8 compiles an expression at its first use: a line with an escape is the first to need every form
  const firstStarted = process.hrtime.bigint();
  check(line({ url: 'https://x.example/a%20b' }, 'a URL-encoded text'));
  const firstUs = Number(process.hrtime.bigint() - firstStarted) / 1000;
  check(WITHOUT['a window committed (170 B)']);
  console.log(
    `secrets: ${SECRETS.length}; matcher built in ${compileUs.toFixed(0)} µs; the first line with an escape ${firstUs.toFixed(0)} µs`,
  );
  for (const [name, text] of Object.entries(WITHOUT)) {
    if (check(text) !== text) throw new Error(`${name}: changed, but holds no secret`);
    console.log(`no secret, ${name}: ${measure(check, text, 20_000).toFixed(2)} µs per line`);
  }
  for (const [name, text] of Object.entries(WITH)) {
    const redacted = check(text) !== text;
    console.log(
      `with ${name} (${text.length} B): ${measure(check, text, 5_000).toFixed(2)} µs per line${redacted ? '' : ' (NOT redacted)'}`,
    );
  }
}

main();
