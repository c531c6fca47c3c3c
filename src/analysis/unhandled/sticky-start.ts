// Where the community detection starts when a previous run is stored: each sampled text the previous run put
// in a topic begins in one community with the other texts of that topic, every other text alone. Louvain
// may still move any of them, so a topic that changed is not kept by force; a topic that did not change comes
// back whole, which is what lets its id carry over (carry-over-ids.ts).

/** The starting community of each sampled row: the first sampled row of its previous topic, else itself. */
export function stickyStart(
  sample: readonly number[],
  texts: readonly string[],
  topicOfText: ReadonlyMap<string, string>,
): Int32Array | undefined {
  if (topicOfText.size === 0) return undefined;
  const firstOf = new Map<string, number>();
  return Int32Array.from(sample, (textIndex, row) => {
    const id = topicOfText.get(texts[textIndex]!);
    if (id === undefined) return row;
    const first = firstOf.get(id);
    if (first !== undefined) return first;
    firstOf.set(id, row);
    return row;
  });
}
