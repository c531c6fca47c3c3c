// Test helper: a raw HTTP caller of the emulated knowledge base (`{kbUrl}/api/knowledge-hub/...` with a
// bearer key), JSON or multipart bodies, and a reader of an SSE answer into its events; independent of any
// client code under test.
import { DEFAULT_KB_PROJECT_KEY } from '../../src/emulator/kb/kb-options.js';

export interface KbCallOptions {
  method?: string;
  body?: unknown;
  /** multipart/form-data fields; a Blob value is sent as a file part. */
  form?: Record<string, string | string[] | { blob: Blob; filename: string }>;
  /** The bearer key (default: the project key); null sends no Authorization header. */
  key?: string | null;
}

export interface KbCallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export function makeKbCaller(kbUrl: string, defaultKey: string = DEFAULT_KB_PROJECT_KEY) {
  return async function call<T = any>(path: string, options: KbCallOptions = {}): Promise<KbCallResult<T>> {
    const headers: Record<string, string> = {};
    const key = options.key === undefined ? defaultKey : options.key;
    if (key !== null) headers['authorization'] = `Bearer ${key}`;
    let body: FormData | string | undefined;
    if (options.form) {
      const form = new FormData();
      for (const [name, value] of Object.entries(options.form)) {
        if (typeof value === 'string') form.append(name, value);
        else if (Array.isArray(value)) for (const v of value) form.append(name, v);
        else form.append(name, value.blob, value.filename);
      }
      body = form;
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(`${kbUrl}/api/knowledge-hub/${path}`, {
      method: options.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  };
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Parses an SSE text into its events (`event:` and one `data:` line each). */
export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return { event, data: data === undefined ? undefined : JSON.parse(data) };
    });
}

/** Reads a streamed generation: its events, and whether the connection ended abruptly. */
export async function readStream(
  kbUrl: string,
  body: unknown,
  key: string = DEFAULT_KB_PROJECT_KEY,
): Promise<{ status: number; contentType: string; events: SseEvent[]; cut: boolean }> {
  const response = await fetch(`${kbUrl}/api/knowledge-hub/query/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  let text = '';
  let cut = false;
  try {
    const decoder = new TextDecoder();
    for await (const part of response.body as unknown as AsyncIterable<Uint8Array>)
      text += decoder.decode(part, { stream: true });
  } catch {
    cut = true;
  }
  // a cut stream may end on a partial event: keep the complete ones
  const complete = text.slice(0, text.lastIndexOf('\n\n') + 2);
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    events: parseSse(complete),
    cut,
  };
}
