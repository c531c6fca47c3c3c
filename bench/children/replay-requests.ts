// The transfer floor: replays recorded requests (NDJSON of {method, url, body}) against a base URL with a
// bare undici Pool, `concurrency` requests in flight, every body read to the end and discarded. Prints
// {requests, bytes, wallMs, failures} as JSON. Usage: replay-requests.js FILE BASE_URL TOKEN CONCURRENCY
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

interface Recorded {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: string;
}

const [file, baseUrl, token, concurrencyText] = process.argv.slice(2);
if (!file || !baseUrl || !token || !concurrencyText) {
  process.stderr.write('usage: replay-requests.js FILE BASE_URL TOKEN CONCURRENCY\n');
  process.exit(2);
}
const concurrency = Number(concurrencyText);
const requests = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => JSON.parse(line) as Recorded);

const pool = new Pool(baseUrl, { connections: concurrency, keepAliveTimeout: 10_000 });
let next = 0;
let bytes = 0;
let failures = 0;

async function worker(): Promise<void> {
  for (let n = next++; n < requests.length; n = next++) {
    const r = requests[n]!;
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}` };
    if (r.body !== undefined) headers['content-type'] = 'application/json';
    const response = await pool.request({
      method: r.method,
      path: r.url,
      headers,
      ...(r.body === undefined ? {} : { body: r.body }),
    });
    for await (const chunk of response.body) bytes += (chunk as Buffer).length;
    if (response.statusCode >= 300) failures++;
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, () => worker()));
const wallMs = performance.now() - started;
await pool.close();
process.stdout.write(`${JSON.stringify({ requests: requests.length, bytes, wallMs, failures })}\n`);
