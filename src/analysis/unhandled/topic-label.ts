// What a person reads of a topic: its label, the most central short phrasing (at most LABEL_MAX characters),
// and examples likewise; a phrasing longer than that is cut at a word with "…". Among the members nearly as
// central as the most central one, the one with the most messages wins, so a frequent typo-free phrasing is
// chosen over a rare variant.

export const LABEL_MAX = 80;
/** How much less central (cosine to the centre) than the most central member a label may be. */
const LABEL_SLACK = 0.1;

/** A phrasing cut to at most `max` characters at a word boundary, with "…" when cut. */
export function shorten(text: string, max = LABEL_MAX): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 3 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * The label of a topic: among its members (indexes into texts) that fit in LABEL_MAX characters and whose
 * cosine to the centre is within LABEL_SLACK of the best, the one with the most messages (ties: more central,
 * then the text); when none fits, the most central one shortened.
 */
export function centralLabel(
  members: readonly number[],
  texts: readonly string[],
  similarity: (i: number) => number,
  messages: Float64Array,
): string {
  let best = -1;
  for (const i of members) if (best < 0 || similarity(i) > similarity(best)) best = i;
  if (best < 0) return '';
  const floor = similarity(best) - LABEL_SLACK;
  let pick = -1;
  for (const i of members) {
    if (Array.from(texts[i]!).length > LABEL_MAX || similarity(i) < floor) continue;
    if (pick < 0 || isBetterLabel(i, pick, texts, similarity, messages)) pick = i;
  }
  return pick >= 0 ? texts[pick]! : shorten(texts[best]!);
}

function isBetterLabel(
  i: number,
  pick: number,
  texts: readonly string[],
  similarity: (i: number) => number,
  messages: Float64Array,
): boolean {
  if (messages[i] !== messages[pick]) return messages[i]! > messages[pick]!;
  if (similarity(i) !== similarity(pick)) return similarity(i) > similarity(pick);
  return texts[i]! < texts[pick]!;
}
