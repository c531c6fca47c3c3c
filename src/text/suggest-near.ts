// Did-you-mean: the known name a mistyped one was probably meant to be (a command, an option, a report, a
// job, a key of the config file), by edit distance with a swap of neighbours counted as one edit. Never a guess
// far from what was typed: at most 2 edits (1 for names of 4 characters or fewer).

/** Edit distance of two short strings (insertions, deletions, substitutions; a swap of neighbours is one). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/** The allowed name a misspelled one was probably meant to be: at most 2 edits away (1 for short keys). */
export function suggestKey(key: string, allowed: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of allowed) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= (candidate.length <= 4 ? 1 : 2) && (!best || distance < best.distance))
      best = { key: candidate, distance };
  }
  return best?.key;
}

/** ` (did you mean "x"?)` when a known name is near `name`, else nothing: for the end of an error's subject. */
export function didYouMean(name: string, known: readonly string[]): string {
  const near = suggestKey(name, known);
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}
