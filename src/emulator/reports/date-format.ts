// Java DateTimeFormatter-style patterns for date-times written in report files (settings.dateTimeFormat):
// y M d H m s S X x Z letters and 'quoted' literals. Invariant: a pattern is validated once, at task
// creation, and an unsupported letter is a 400 naming the settings field.
import { badParameter } from '../api-error.js';

/** Formats epoch ms shifted by an offset in minutes east of UTC. */
export type DateTimeFormatter = (epochMs: number, offsetMinutes: number) => string;

type Part = (d: Date, offsetMinutes: number) => string;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function offsetText(offsetMinutes: number, colon: boolean, zeroAsZ: boolean, hoursOnly: boolean): string {
  if (offsetMinutes === 0 && zeroAsZ) return 'Z';
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = pad(Math.floor(abs / 60), 2);
  const mm = pad(abs % 60, 2);
  if (hoursOnly && abs % 60 === 0) return `${sign}${hh}`;
  return colon ? `${sign}${hh}:${mm}` : `${sign}${hh}${mm}`;
}

function letterPart(letter: string, count: number, field: string): Part {
  const numeric =
    (get: (d: Date) => number): Part =>
    (d) =>
      pad(get(d), count);
  switch (letter) {
    case 'y':
    case 'u':
      return count === 2 ? (d) => pad(d.getUTCFullYear() % 100, 2) : numeric((d) => d.getUTCFullYear());
    case 'M':
      if (count === 3) return (d) => MONTHS[d.getUTCMonth()]!.slice(0, 3);
      if (count >= 4) return (d) => MONTHS[d.getUTCMonth()]!;
      return numeric((d) => d.getUTCMonth() + 1);
    case 'd':
      return numeric((d) => d.getUTCDate());
    case 'H':
      return numeric((d) => d.getUTCHours());
    case 'm':
      return numeric((d) => d.getUTCMinutes());
    case 's':
      return numeric((d) => d.getUTCSeconds());
    case 'S':
      if (count > 9) break;
      return (d) => pad(d.getUTCMilliseconds(), 3).padEnd(count, '0').slice(0, count);
    case 'X':
    case 'x':
      if (count > 3) break;
      return (_d, offset) => offsetText(offset, count === 3, letter === 'X', count === 1);
    case 'Z':
      if (count > 3) break;
      return (_d, offset) => offsetText(offset, false, false, false);
  }
  throw badParameter(
    field,
    `unsupported pattern letters ${letter.repeat(count)} (supported: y M d H m s S X x Z and 'quoted text')`,
  );
}

/** Compiles a pattern; throws a 400 naming `field` when it cannot be formatted. */
export function compileDateTimeFormat(pattern: string, field: string): DateTimeFormatter {
  const parts: Part[] = [];
  let n = 0;
  while (n < pattern.length) {
    const ch = pattern[n]!;
    if (/[A-Za-z]/.test(ch)) {
      let count = 1;
      while (pattern[n + count] === ch) count++;
      parts.push(letterPart(ch, count, field));
      n += count;
    } else if (ch === "'") {
      if (pattern[n + 1] === "'") {
        parts.push(() => "'");
        n += 2;
        continue;
      }
      const end = pattern.indexOf("'", n + 1);
      if (end < 0) throw badParameter(field, 'unterminated quoted text in the pattern');
      const literal = pattern.slice(n + 1, end);
      parts.push(() => literal);
      n = end + 1;
    } else {
      parts.push(() => ch);
      n++;
    }
  }
  return (epochMs, offsetMinutes) => {
    const d = new Date(epochMs + offsetMinutes * 60_000);
    let out = '';
    for (const part of parts) out += part(d, offsetMinutes);
    return out;
  };
}
