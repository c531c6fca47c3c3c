// A pino JSON record as one human line for a terminal (LOG_FORMAT=pretty): `12:03:04 warn  message (key=value ...)`,
// local time, level, message, then the other fields; every part escaped, so no control character reaches the
// terminal raw. The record is already redacted by the logger: this only reshapes it.
import { escapeForTerminal } from './escape-terminal-text.js';

const LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

const HIDDEN = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

function formatValue(key: string, value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  if (key === 'err' && value !== null && typeof value === 'object' && 'message' in value)
    return JSON.stringify(String((value as { message: unknown }).message));
  return JSON.stringify(value) ?? String(value);
}

/** One JSON line (pino's output, with or without its newline) as a human line ending with a newline. */
export function formatLogLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return `${escapeForTerminal(json.replace(/\n$/, ''))}\n`;
  }
  const time = typeof record['time'] === 'number' ? new Date(record['time']) : new Date();
  const clock = `${pad2(time.getHours())}:${pad2(time.getMinutes())}:${pad2(time.getSeconds())}`;
  const level = LEVELS[Number(record['level'])] ?? String(record['level']);
  const parts = [clock, level.padEnd(5)];
  if (typeof record['msg'] === 'string' && record['msg'] !== '') parts.push(record['msg']);
  const fields = Object.entries(record)
    .filter(([key, value]) => !HIDDEN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${formatValue(key, value)}`);
  if (fields.length > 0) parts.push(`(${fields.join(' ')})`);
  return `${escapeForTerminal(parts.join(' '))}\n`;
}
