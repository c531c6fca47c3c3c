// Reads a request's body up to a limit and no further: a body declared larger (Content-Length) is not read at
// all, and one sent without a length (chunked) stops being read once it passes the limit; the request is then
// paused, so its connection must be closed by the answer (`connection: close`) rather than drained.
import type { IncomingMessage } from 'node:http';

export interface RequestBody {
  /** The body as UTF-8 (at most `limit` bytes of it when too large). */
  text: string;
  /** Larger than the limit: declared so, or sent so. */
  tooLarge: boolean;
}

/** Whether the request declares a body larger than `limit` (Content-Length), known before reading any of it. */
export function declaresMoreThan(request: IncomingMessage, limit: number): boolean {
  const declared = Number(request.headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}

export function readRequestBody(request: IncomingMessage, limit: number): Promise<RequestBody> {
  if (declaresMoreThan(request, limit)) return Promise.resolve({ text: '', tooLarge: true });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      outcome();
    };
    const text = () => Buffer.concat(chunks).toString('utf8');
    const onData = (chunk: Buffer) => {
      const room = limit - size;
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      chunks.push(chunk.subarray(0, room));
      request.pause();
      settle(() => resolve({ text: text(), tooLarge: true }));
    };
    const onEnd = () => settle(() => resolve({ text: text(), tooLarge: false }));
    const onError = (error: Error) => settle(() => reject(error));
    const onClose = () =>
      settle(() => reject(new Error('the client closed the connection before the end of the body')));
    request.on('data', onData).once('end', onEnd).once('error', onError).once('close', onClose);
  });
}
