// The one progress line a command draws on stderr (a terminal): redrawn in place with \r, and taken off
// before any log line is written and drawn again after it, so a log line never glues onto a progress line.
let shown: string | undefined;

const CLEAR = '\r\x1b[2K';

/** Draws `text` (already escaped for the terminal) as the progress line, replacing the previous one. */
export function showStatusLine(text: string): void {
  shown = text;
  process.stderr.write(`${CLEAR}${text}`);
}

/** Takes the progress line off the terminal (nothing when none is shown). */
export function clearStatusLine(): void {
  if (shown === undefined) return;
  shown = undefined;
  process.stderr.write(CLEAR);
}

/** Writes `write`'s output with the progress line taken off before and drawn again after. */
export function writeAboveStatusLine(write: () => void): void {
  const text = shown;
  if (text !== undefined) process.stderr.write(CLEAR);
  write();
  if (text !== undefined) process.stderr.write(text);
}
