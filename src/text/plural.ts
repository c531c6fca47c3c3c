// Counts and sizes in words for people: `1 task`, `2 tasks`, `1 entry`... and `94 KB`, `2.3 MB`. One place, so
// every command says them the same way (--json output keeps raw numbers).

/** `n` and the noun in the form its count wants: plural(1, 'task') = '1 task', plural(3, 'entry', 'entries'). */
export function plural(n: number, one: string, many: string = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** A file size in the largest unit (1024-based) that keeps at least 1: `512 bytes`, `94 KB`, `2.3 MB`, `1.1 GB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return plural(bytes, 'byte');
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ${units[unit]}`;
}
