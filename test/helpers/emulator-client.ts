// Test helper: a tiny raw HTTP caller for emulator tests (v1 bearer, legacy token-in-path, or no auth),
// deliberately independent of src/platform/reporter so emulator tests do not depend on the client under test.
import { DEFAULT_V1_TOKEN, defaultLegacyToken } from '../../src/emulator/emulator.js';

export const TEST_NOW = Date.parse('2026-11-01T00:00:00.000Z');

export interface CallOptions {
  method?: string;
  body?: unknown;
  generation?: 'v1' | 'legacy' | 'alias';
  token?: string | null;
  project?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export function makeCaller(baseUrl: string) {
  return async function call<T = any>(path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const generation = options.generation ?? 'v1';
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    let url: string;
    if (generation === 'legacy') {
      const token =
        options.token === undefined ? defaultLegacyToken(options.project ?? 'shop-bot') : options.token;
      url = `${baseUrl}/api/reporter/p/${token}/${path}`;
    } else {
      url = generation === 'alias' ? `${baseUrl}/reporter/${path}` : `${baseUrl}/api/v1/reporter/${path}`;
      const token = options.token === undefined ? DEFAULT_V1_TOKEN : options.token;
      if (token !== null) headers['authorization'] = `Bearer ${token}`;
    }
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await response.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, body: body as T, text };
  };
}

export const range = (key: string, from: string | number, to: string | number) => ({
  key,
  type: 'DATE_TIME_RANGE',
  from: typeof from === 'number' ? new Date(from).toISOString() : from,
  to: typeof to === 'number' ? new Date(to).toISOString() : to,
});

/** Pages through a filter operation with the given size; returns every row and the totalCounts seen. */
export async function pageAll(
  call: ReturnType<typeof makeCaller>,
  path: string,
  key: 'sessions' | 'messages' | 'clients',
  body: unknown,
  size = 500,
  extra = '',
) {
  const rows: any[] = [];
  const totals: number[] = [];
  for (let page = 0; ; page++) {
    const r = await call(`${path}?page=${page}&size=${size}${extra}`, { body });
    if (r.status !== 200) throw new Error(`${path} page ${page}: ${r.status} ${r.text}`);
    totals.push(r.body.paging.totalCount);
    rows.push(...r.body[key]);
    if (r.body[key].length === 0 || (page + 1) * r.body.paging.pageSize >= r.body.paging.totalCount) break;
  }
  return { rows, totals };
}
