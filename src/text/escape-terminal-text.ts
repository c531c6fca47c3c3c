// Text from the platform (message texts, label names, error bodies) shown on a terminal: control characters
// made visible so that none reaches the terminal raw (ESC sequences could recolour, move or retitle it). One
// convention, JSON's: \n \r \t and \uXXXX for the other C0 controls, DEL and C1 (ESC is \u001b); inside a JSON
// string the same escapes mean the same character, so JSON output escaped this way parses to the exact text.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

function visible(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character shown as an escape: one line, for a table cell or a value inside a
 * line (a newline shows as `\n`). With `keepLines`, newlines and tabs are kept (for whole output lines).
 */
export function escapeForTerminal(text: string, options: { keepLines?: boolean } = {}): string {
  return text.replace(options.keepLines ? CONTROL_BUT_LINES : CONTROL, visible);
}
