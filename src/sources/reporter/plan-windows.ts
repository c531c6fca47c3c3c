// Cuts a time range into sync windows on a fixed grid (multiples of the window length since the epoch),
// so that the windows of successive runs line up; the first and last may be partial.
export interface TimeWindow {
  from: number;
  to: number;
  /** A window of an incremental run's look-back, before its watermark: read by its changes (read-lookback-window.ts). */
  lookback?: boolean;
}

export function planWindows(from: number, to: number, windowMs: number): TimeWindow[] {
  const windows: TimeWindow[] = [];
  let start = from;
  while (start < to) {
    const gridEnd = (Math.floor(start / windowMs) + 1) * windowMs;
    const end = Math.min(gridEnd, to);
    windows.push({ from: start, to: end });
    start = end;
  }
  return windows;
}

/** Halves a window (for windows holding too many sessions). */
export function splitWindow(w: TimeWindow): [TimeWindow, TimeWindow] {
  const mid = w.from + Math.floor((w.to - w.from) / 2);
  return [
    { ...w, from: w.from, to: mid },
    { ...w, from: mid, to: w.to },
  ];
}
