// The side-by-side step's careful client: what a careful integrator writes from the Reporter API contract
// alone (no code of src/), with undici. Window after window (48 hours) of [--from, --to): the sessions
// through sessions/filter by their start (labels and sessionData), then each session's messages with their
// labels and delivery statuses through messages/by-session, and the clients active in the window through
// clients/filter; 6 requests in flight, a 429 waited out by its Retry-After, a 5xx or a dropped connection
// asked again. Everything goes to NDJSON files in --out (sessions, messages, clients), each record as
// answered. Prints `{"sessions", "messages", "clients", "requests", "throttled", "durationMs"}` at the end.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const IN_FLIGHT = 6;
const PAGE_SIZE = 500;
const WINDOW_MS = 48 * 3_600_000;
const ATTEMPTS = 8;

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    token: { type: 'string' },
    project: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    out: { type: 'string' },
  },
});
for (const name of ['base', 'token', 'project', 'from', 'to', 'out'] as const)
  if (!values[name]) throw new Error(`careful-client: --${name} is required`);
const base = new URL(values.base!);
const pool = new Pool(base.origin, { connections: IN_FLIGHT });
const counts = { sessions: 0, messages: 0, clients: 0, requests: 0, throttled: 0 };

/** At most IN_FLIGHT requests at once; the others wait their turn in order. */
let inFlight = 0;
const queue: (() => void)[] = [];
async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (inFlight >= IN_FLIGHT) await new Promise<void>((resolve) => queue.push(resolve));
  inFlight++;
  try {
    return await work();
  } finally {
    inFlight--;
    queue.shift()?.();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One API call (`/api/v1/reporter/<op>`), its JSON answer; 429, 5xx and network errors asked again. */
async function call(method: 'GET' | 'POST', op: string, query: Record<string, string>, body?: unknown) {
  const search = new URLSearchParams({ projectShortName: values.project!, ...query });
  const path = `/api/v1/reporter/${op}?${search}`;
  for (let attempt = 1; ; attempt++) {
    const answer = await slot(async () => {
      counts.requests++;
      try {
        const response = await pool.request({
          method,
          path,
          headers: { authorization: `Bearer ${values.token}`, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
      } catch (error) {
        return { status: 0, headers: {}, text: String(error) };
      }
    });
    if (answer.status === 200) return JSON.parse(answer.text) as Record<string, unknown>;
    const again = answer.status === 429 || answer.status === 0 || answer.status >= 500;
    if (!again || attempt >= ATTEMPTS)
      throw new Error(`${method} ${op} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    if (answer.status === 429) counts.throttled++;
    const retryAfter = Number(answer.headers['retry-after']);
    await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 200 * 2 ** attempt);
  }
}

/** Every record of a paged operation: page 0, then the other pages together. */
async function readPaged(
  method: 'GET' | 'POST',
  op: string,
  key: string,
  query: Record<string, string>,
  body?: unknown,
): Promise<unknown[]> {
  const page = (n: number) => call(method, op, { ...query, page: String(n), size: String(PAGE_SIZE) }, body);
  const first = await page(0);
  const total = (first['paging'] as { totalCount: number }).totalCount;
  const rows = first[key] as unknown[];
  const size = Math.max(1, rows.length);
  const pages = rows.length >= total ? 1 : Math.ceil(total / size);
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, n) => page(n + 1)));
  return [...rows, ...rest.flatMap((p) => p[key] as unknown[])];
}

const range = (key: string, from: number, to: number) => ({
  key,
  type: 'DATE_TIME_RANGE',
  from: new Date(from).toISOString(),
  to: new Date(to - 1).toISOString(),
});

function writeAll(stream: WriteStream, records: readonly unknown[]): void {
  for (const record of records) stream.write(`${JSON.stringify(record)}\n`);
}

async function readWindow(from: number, to: number, out: Record<string, WriteStream>): Promise<void> {
  const sessions = (await readPaged(
    'POST',
    'sessions/filter',
    'sessions',
    { needToReturnSessionLabels: 'true', needToReturnSessionData: 'true' },
    { filters: [range('SESSION_START_TIME', from, to)] },
  )) as { sessionId: string }[];
  const clients = readPaged(
    'POST',
    'clients/filter',
    'clients',
    {},
    {
      filters: [range('CLIENT_LAST_ACTIVITY_TIME', from, to)],
    },
  );
  const messages = await Promise.all(
    sessions.map(async (s) =>
      (await readPaged('GET', 'messages/by-session', 'messages', { sessionId: s.sessionId })).map((m) => ({
        ...(m as object),
        sessionId: s.sessionId,
      })),
    ),
  );
  writeAll(out['sessions']!, sessions);
  for (const list of messages) writeAll(out['messages']!, list);
  writeAll(out['clients']!, await clients);
  counts.sessions += sessions.length;
  counts.messages += messages.reduce((n, list) => n + list.length, 0);
  counts.clients += (await clients).length;
}

const started = performance.now();
mkdirSync(values.out!, { recursive: true });
const out = Object.fromEntries(
  ['sessions', 'messages', 'clients'].map((name) => [
    name,
    createWriteStream(join(values.out!, `${name}.ndjson`)),
  ]),
);
const end = Date.parse(values.to!);
for (let from = Date.parse(values.from!); from < end; from += WINDOW_MS)
  await readWindow(from, Math.min(end, from + WINDOW_MS), out);
await Promise.all(Object.values(out).map((s) => new Promise((resolve) => s.end(resolve))));
await pool.close();
process.stdout.write(`${JSON.stringify({ ...counts, durationMs: performance.now() - started })}\n`);
