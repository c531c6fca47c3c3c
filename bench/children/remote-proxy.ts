// The side-by-side step's remote platform: a node:http proxy in front of a near emulator that answers every
// request LATENCY_MS later (the round trip of a platform far away) and lets RATE a second through (a token
// bucket of RATE with a one-second burst; beyond it 429 with Retry-After, nothing forwarded). With
// --refuse-message-reports it answers the creation of a `messages` report task 403 with the platform's
// ErrorDto, as for a token lacking the scope. Written apart from src/ (src/emulator/remote.ts is the
// emulator's own remote mode): it only relays bytes, rewriting the emulator's origin in JSON answers to its
// own (the report tasks' fileUrl) as the platform's gateway names itself. Prints `{"port": N}` once it
// listens; on SIGTERM prints `{"forwarded", "limited", "refused"}` and exits.
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    upstream: { type: 'string' },
    'latency-ms': { type: 'string', default: '60' },
    rate: { type: 'string', default: '120' },
    'refuse-message-reports': { type: 'boolean', default: false },
  },
});
if (!values.upstream) throw new Error('remote-proxy: --upstream http://host:port is required');
const upstream = new URL(values.upstream);
const latencyMs = Number(values['latency-ms']);
const rate = Number(values.rate);
const refuseMessageReports = values['refuse-message-reports'];

const counts = { forwarded: 0, limited: 0, refused: 0 };
let origin = '';

/** A token bucket of `rate` a second holding at most one second's worth. */
let tokens = rate;
let filledAt = performance.now();
function takeToken(): boolean {
  const now = performance.now();
  tokens = Math.min(rate, tokens + ((now - filledAt) * rate) / 1000);
  filledAt = now;
  if (tokens < 1) return false;
  tokens -= 1;
  return true;
}

const later = (work: () => void) => setTimeout(work, latencyMs);

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  later(() => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  });
}

/** The creation of a `messages` report task (v1 async, or the legacy task). */
const createsMessageReport = (req: IncomingMessage): boolean =>
  req.method === 'POST' && /\/reports\/messages(\?|$)/.test(req.url ?? '');

function forward(req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  const headers = { ...req.headers, host: upstream.host };
  const out = request(upstream, { method: req.method, path: req.url, headers }, (answer) => {
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.on('end', () => {
      let data = Buffer.concat(chunks);
      const type = String(answer.headers['content-type'] ?? '');
      if (type.includes('json'))
        data = Buffer.from(data.toString('utf8').replaceAll(upstream.origin, origin));
      const { 'content-length': _length, 'transfer-encoding': _encoding, ...rest } = answer.headers;
      later(() => {
        res.writeHead(answer.statusCode ?? 502, { ...rest, 'content-length': data.length });
        res.end(data);
      });
    });
  });
  out.on('error', (error) => sendJson(res, 502, { error: 'proxy.upstream', message: error.message }));
  out.end(body);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (!takeToken()) {
      counts.limited++;
      sendJson(
        res,
        429,
        { error: 'gateway.rate_limited', message: `over ${rate} requests a second` },
        {
          'retry-after': '1',
        },
      );
      return;
    }
    if (refuseMessageReports && createsMessageReport(req)) {
      counts.refused++;
      sendJson(res, 403, {
        error: 'reporter.forbidden',
        message: 'the token may not create messages reports',
      });
      return;
    }
    counts.forwarded++;
    forward(req, res, Buffer.concat(chunks));
  });
});
server.keepAliveTimeout = 10_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  origin = `http://127.0.0.1:${port}`;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => {
  process.stdout.write(`${JSON.stringify(counts)}\n`);
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
