// Test helper for report tasks over raw HTTP: create reports on both generations, long-poll the async
// events until a task ends, poll legacy tasks, download files. Independent of src/platform/reporter on purpose.
import { DEFAULT_V1_TOKEN, defaultLegacyToken } from '../../src/emulator/emulator.js';

export const V1_AUTH = { authorization: `Bearer ${DEFAULT_V1_TOKEN}` };
export const LEGACY_TOKEN = defaultLegacyToken('shop-bot');

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

async function answer<T>(response: Response): Promise<Answer<T>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body: body as T, text };
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export async function request<T = any>(url: string, options: RequestOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return answer<T>(response);
}

export function reportsApi(base: string) {
  const v1 = `${base}/api/v1/reporter`;
  const legacy = `${base}/api/reporter/p/${LEGACY_TOKEN}`;
  return {
    v1,
    legacy,
    /** POST async:reporter/reports/{kind} (v1). */
    createAsync(
      kind: string,
      body?: unknown,
      options: { query?: string; headers?: Record<string, string> } = {},
    ) {
      return request(`${base}/api/v1/async/reporter/reports/${kind}${options.query ?? ''}`, {
        method: 'POST',
        body,
        headers: { ...V1_AUTH, ...(options.headers ?? {}) },
      });
    },
    /** POST reports/{kind} (legacy). */
    createLegacy(
      kind: string,
      body?: unknown,
      options: { query?: string; headers?: Record<string, string> } = {},
    ) {
      return request(`${legacy}/reports/${kind}${options.query ?? ''}`, {
        method: 'POST',
        body,
        headers: options.headers ?? {},
      });
    },
    events(query: string, signal?: AbortSignal) {
      return request(`${base}/api/v1/async/events${query}`, {
        headers: V1_AUTH,
        ...(signal ? { signal } : {}),
      });
    },
    /** Long-polls one request's events (startTime = the last responseTime seen) until its task ends. */
    async eventsUntilDone(requestId: string, deadlineMs = 10_000): Promise<any[]> {
      const seen: any[] = [];
      const stop = Date.now() + deadlineMs;
      let after: number | undefined;
      while (Date.now() < stop) {
        const q = `?requestId=${requestId}&timeout=5${after === undefined ? '' : `&startTime=${after}`}`;
        const r = await request(`${base}/api/v1/async/events${q}`, { headers: V1_AUTH });
        if (r.status !== 200) throw new Error(`events: ${r.status} ${r.text}`);
        for (const event of r.body.response) {
          seen.push(event);
          after = Date.parse(event.responseTime);
        }
        const last = seen[seen.length - 1];
        if (last && (!last.isOk || ['COMPLETED', 'FAILED', 'DELETED'].includes(last.payload?.status)))
          return seen;
      }
      throw new Error(`request ${requestId} did not end in ${deadlineMs} ms: ${JSON.stringify(seen.at(-1))}`);
    },
    /** Polls a legacy task until it ends. */
    async legacyUntilDone(taskId: string, deadlineMs = 10_000): Promise<any> {
      const stop = Date.now() + deadlineMs;
      while (Date.now() < stop) {
        const r = await request(`${legacy}/reports/tasks/${taskId}`);
        if (r.status !== 200) throw new Error(`task ${taskId}: ${r.status} ${r.text}`);
        if (['COMPLETED', 'FAILED', 'DELETED'].includes(r.body.status)) return r.body;
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      throw new Error(`task ${taskId} did not end in ${deadlineMs} ms`);
    },
    async download(fileUrl: string, headers: Record<string, string> = V1_AUTH) {
      const response = await fetch(fileUrl, { headers });
      return { status: response.status, headers: response.headers, data: await response.arrayBuffer() };
    },
  };
}
