// Runs async operations one at a time, in call order: a DuckDB connection has one transaction at a time,
// so two overlapping commitWindow calls on one connection would interleave their statements.
// A failed operation does not stop the ones queued after it.

export interface SerialQueue {
  run<T>(operation: () => Promise<T>): Promise<T>;
  /** Resolves when every operation queued so far has settled. */
  drain(): Promise<void>;
}

export function createSerialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(operation: () => Promise<T>): Promise<T> {
      const result = tail.then(operation, operation);
      tail = result.catch(() => undefined);
      return result;
    },
    async drain(): Promise<void> {
      await tail;
    },
  };
}
