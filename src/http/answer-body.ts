// The body of a 2xx answer, read as JSON, and what an unreadable one means: for a read, ask again; for a
// write (a request that changes something), the server has done it, so it is never sent again and the caller
// gets the answer marked unreadable, to record. Invariant: a request is a write unless it is a GET or says it
// only reads (the many POST …/filter reads of the Reporter API say so).

/** The answer of a request on the transport. */
export interface HttpAnswer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON; undefined for an empty body, or an unreadable one. */
  value: T | undefined;
  /**
   * A write's 2xx answer that could not be read (cut short, not JSON), in words: the write was done all the
   * same and was not sent again. Undefined when the answer was read.
   */
  unreadable?: string;
}

/** Whether a request changes something on the server: not a GET, and not a POST marked as a read. */
export function isWrite(req: { method: string; read?: boolean }): boolean {
  return req.method !== 'GET' && req.read !== true;
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; problem: string };

/** The body as JSON (undefined when empty), or what is wrong with it in words. */
export function parseBody(
  text: string,
  headers: HttpAnswer['headers'],
  parseJson: (text: string) => unknown = JSON.parse,
): ParsedBody {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: parseJson(text) };
  } catch {
    const type = String(headers['content-type'] ?? '');
    return {
      ok: false,
      problem: `a body that is not JSON (${type || 'no content type'}, ${text.length} bytes)`,
    };
  }
}
