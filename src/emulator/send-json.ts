// Writes one JSON answer of the emulator's services (the Reporter API, the Chat API, Pushgate, the knowledge
// base): the status, a content type when there is a body, its length, and any extra headers; a bigint is
// written with every digit (json-text.ts).
import type { ServerResponse } from 'node:http';
import { jsonText } from './json-text.js';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : jsonText(body);
  res.writeHead(status, {
    ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
