// Test helper: a raw HTTP caller for the emulator's Chat API (`{base}/chatapi/{token}/...`), independent of
// any client code, and the wire time form (`2026-11-01T10:00:00.123`, UTC without a zone) read back.
export interface ChatCallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export function makeChatCaller(baseUrl: string, token: string, prefix = '') {
  return async function chat<T = any>(
    path: string,
    options: { method?: string; body?: unknown; token?: string } = {},
  ): Promise<ChatCallResult<T>> {
    const url = `${baseUrl}${prefix}/chatapi/${options.token ?? token}${path === '' ? '' : `/${path}`}`;
    const response = await fetch(url, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      ...(options.body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(options.body) }),
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

/** Epoch ms of a Chat API wire time (no zone: UTC). */
export function chatTimeMs(wire: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/.test(wire))
    throw new Error(`not a Chat API time: ${wire}`);
  return Date.parse(`${wire}Z`);
}
