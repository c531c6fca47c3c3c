// Test helper: the Chrome DevTools protocol over Chromium's `--remote-debugging-pipe` (commands written to
// its fd 3, answers and events read from its fd 4, each message one JSON text ended by a NUL byte), so that
// one browser serves a test file's pages with no WebSocket. Every command has a deadline: an answer that
// never comes fails the command and ends the browser (onTimeout) instead of hanging the test.
import type { Readable, Writable } from 'node:stream';

/** A protocol event: its method, its parameters, and the session (tab) it came from, if any. */
export interface DevtoolsEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId?: string;
}

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface DevtoolsPipe {
  /** Sends `method` (to the browser, or to the tab of `sessionId`) and resolves with its result. */
  send(
    method: string,
    params?: Record<string, unknown>,
    sessionId?: string,
  ): Promise<Record<string, unknown>>;
  /** Calls `listener` with every event from now on, until the function it gives back is called. */
  listen(listener: (event: DevtoolsEvent) => void): () => void;
  /** Fails every command still open, and every one sent from now on (the browser is gone). */
  fail(error: Error): void;
  /** Rejects, with the error given to fail(), once the browser is gone. */
  gone: Promise<never>;
}

/** A protocol client over `toBrowser` (Chromium's fd 3) and `fromBrowser` (its fd 4). */
export function connectDevtoolsPipe(
  toBrowser: Writable,
  fromBrowser: Readable,
  o: { commandTimeoutMs: number; onTimeout: () => void },
): DevtoolsPipe {
  const pending = new Map<number, Pending>();
  const listeners = new Set<(event: DevtoolsEvent) => void>();
  let nextId = 1;
  let buffered: Buffer[] = [];
  let failure: Error | undefined;
  let markGone: (error: Error) => void = () => {};
  const gone = new Promise<never>((_, reject) => {
    markGone = reject;
  });
  gone.catch(() => {}); // a browser that ends with nothing waiting on it is no error

  const dispatch = (text: string) => {
    const message = JSON.parse(text) as DevtoolsEvent & {
      id?: number;
      result?: Record<string, unknown>;
      error?: { message: string };
    };
    if (message.id !== undefined) {
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      clearTimeout(call.timer);
      if (message.error) call.reject(new Error(`devtools: ${message.error.message}`));
      else call.resolve(message.result ?? {});
      return;
    }
    for (const listener of listeners) listener(message);
  };
  fromBrowser.on('data', (chunk: Buffer) => {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      buffered.push(chunk.subarray(start, end));
      dispatch(Buffer.concat(buffered).toString('utf8'));
      buffered = [];
      start = end + 1;
    }
    if (start < chunk.length) buffered.push(chunk.subarray(start));
  });

  const fail = (error: Error) => {
    failure ??= error;
    markGone(failure);
    for (const call of pending.values()) {
      clearTimeout(call.timer);
      call.reject(failure);
    }
    pending.clear();
  };
  // a pipe broken by a browser that ended fails what is open, as its exit does
  for (const stream of [toBrowser, fromBrowser])
    stream.on('error', (error: Error) => fail(new Error(`devtools pipe: ${error.message}`)));

  return {
    send(method, params = {}, sessionId) {
      return new Promise((resolve, reject) => {
        if (failure) return reject(failure);
        const id = nextId++;
        const timer = setTimeout(() => {
          o.onTimeout();
          reject(new Error(`devtools: no answer to ${method} in ${o.commandTimeoutMs} ms`));
        }, o.commandTimeoutMs);
        pending.set(id, { resolve, reject, timer });
        toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
      });
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fail,
    gone,
  };
}
