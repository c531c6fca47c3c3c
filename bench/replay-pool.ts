// The replay of the full sync's recorded requests (NDJSON of {method, url, body}) shared by the children that
// replay them (children/replay-requests.ts, the transfer and parse floors; children/native-ingest.ts, the
// native floor): the waits (async/events long polls, report task polls) left out, being the platform's latency,
// not transfer; a bare undici Pool of CONCURRENCY connections with as many requests in flight; a report file
// asked again while it answers 404 (its task, created by the replay, is still being written); a task's DELETE
// after its file's download. Each answer's body is read to the end and handed to the caller, or with no caller
// only counted (no Buffer.concat). The step-side helper that runs those children is steps/replay-recorded.ts.
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

/** One recorded request, as the emulator's request log writes it. */
export interface Recorded {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: string;
}

/** The requests to replay (the waits left out) and how many waits were left out. */
export interface RecordedRequests {
  requests: readonly Recorded[];
  waitsLeftOut: number;
}

/** Where and how to replay: the emulator's base URL, its token, the requests in flight. */
export interface ReplayTarget {
  baseUrl: string;
  token: string;
  concurrency: number;
}

/** What a replay counts: wallMs is the replay's, from the first request to the last answer read. */
export interface ReplayCounts {
  requests: number;
  bytes: number;
  failures: number;
  waitsLeftOut: number;
  wallMs: number;
}

/** Called with each answer (the whole body): awaited before that worker sends its next request. */
export type OnAnswer = (
  request: Recorded,
  status: number,
  body: Buffer,
  isReportFile: boolean,
) => Promise<void> | void;

const REPORT_FILE = /\/reports\/files\/([^/?]+)\//;
const REPORT_TASK = /\/reports\/tasks\/([^/?]+)/;

/** The recorded requests of an NDJSON file, the waits (async/events long polls, report task polls) left out. */
export function readRecordedRequests(file: string): RecordedRequests {
  const recorded = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Recorded);
  const isWait = (r: Recorded) =>
    r.url.includes('/async/events') || (r.method === 'GET' && r.url.includes('/reports/tasks/'));
  const requests = recorded.filter((r) => !isWait(r));
  return { requests, waitsLeftOut: recorded.length - requests.length };
}

/**
 * Replays the requests, `concurrency` in flight, each answer's body read to the end: handed to onAnswer when
 * given (the status >= 300 too, counted as failures after it), else only its bytes counted. Closes the pool.
 */
export async function replayRequests(
  recorded: RecordedRequests,
  target: ReplayTarget,
  onAnswer?: OnAnswer,
): Promise<ReplayCounts> {
  const { requests } = recorded;
  const pool = new Pool(target.baseUrl, { connections: target.concurrency, keepAliveTimeout: 10_000 });
  /** Each report file's download, by task id: its DELETE waits for it. */
  const downloads = new Map<string, Promise<void>>();
  let next = 0;
  let bytes = 0;
  let failures = 0;

  async function send(r: Recorded) {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: `Bearer ${target.token}`,
    };
    if (r.body !== undefined) headers['content-type'] = 'application/json';
    return pool.request({
      method: r.method,
      path: r.url,
      headers,
      ...(r.body === undefined ? {} : { body: r.body }),
    });
  }

  /** A report file, asked again while its task is still being written (404), at most for 30 s. */
  async function sendReportFile(r: Recorded) {
    for (let attempt = 0; ; attempt++) {
      const response = await send(r);
      if (response.statusCode !== 404 || attempt >= 1_500) return response;
      await response.body.dump();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function replayOne(r: Recorded, fileId: string | undefined): Promise<void> {
    const task = r.method === 'DELETE' ? REPORT_TASK.exec(r.url)?.[1] : undefined;
    if (task !== undefined) await downloads.get(task);
    const response = fileId !== undefined ? await sendReportFile(r) : await send(r);
    if (onAnswer === undefined) for await (const chunk of response.body) bytes += (chunk as Buffer).length;
    else {
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      bytes += body.length;
      await onAnswer(r, response.statusCode, body, fileId !== undefined);
    }
    if (response.statusCode >= 300) failures++;
  }

  async function worker(): Promise<void> {
    for (let n = next++; n < requests.length; n = next++) {
      const r = requests[n]!;
      const fileId = REPORT_FILE.exec(r.url)?.[1];
      const done = replayOne(r, fileId);
      if (fileId !== undefined)
        downloads.set(
          fileId,
          done.catch(() => undefined),
        );
      await done;
    }
  }

  const started = performance.now();
  await Promise.all(Array.from({ length: target.concurrency }, () => worker()));
  const wallMs = performance.now() - started;
  await pool.close();
  return { requests: requests.length, bytes, failures, waitsLeftOut: recorded.waitsLeftOut, wallMs };
}
