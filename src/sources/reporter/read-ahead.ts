// The read of the next window while the window before it waits for its statuses, is assembled and committed:
// against a platform far away, a window's reads are round trips one after the other (sessions, then the
// messages' other pages), which the window before can hide. One window is read ahead at most, and its read
// waits for the commit of the window before the current one (run-sync.ts): the rows held stay about two
// windows' worth, the current one's and the committing or next one's. Invariants: a read ahead
// is taken only by the very window it was started for (a window split or halved meanwhile leaves it for
// later: windows stay in order); one never taken is dropped, its failure never unhandled; statuses are still
// assembled one window after the other (the run-wide status cache is taken in order).
import type { TimeWindow } from './plan-windows.js';
import type { FetchedWindow } from './read-window.js';

export class WindowReadAhead {
  private next: { window: TimeWindow; fetched: Promise<FetchedWindow> } | undefined;

  /** Starts reading `window` unless a read ahead is in flight already (at most one). */
  start(window: TimeWindow, fetch: () => Promise<FetchedWindow>): void {
    if (this.next !== undefined) return;
    const fetched = fetch();
    // awaited when its window is read, or dropped: this keeps its failure from being unhandled meanwhile
    fetched.catch(() => undefined);
    this.next = { window, fetched };
  }

  /** The read started ahead for this very window, taken; undefined when there is none for it. */
  take(window: TimeWindow): Promise<FetchedWindow> | undefined {
    if (this.next?.window !== window) return undefined;
    const { fetched } = this.next;
    this.next = undefined;
    return fetched;
  }

  /** Forgets the read in flight (a stop, a window halved after its commit ran out of memory). */
  drop(): void {
    this.next = undefined;
  }
}
