// Writes one JSON answer of the emulator's services (the Reporter API, the Chat API, Pushgate, the knowledge
// base): the status, a content type when there is a body, its length, and any extra headers.
import type { ServerResponse } from 'node:http';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
