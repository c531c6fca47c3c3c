// One text per record for what can change on a look-back record that has no new messages: a message's comment
// and labels, a session's labels (and its sessionData, where the platform returned it). The look-back compares
// the stored and the read record by it, so a labelled or commented record that did not change is not written
// again. Invariant: two texts are equal exactly when the comments, the label (id, name, group) sets and the
// data entries are.
interface LabelLike {
  label_id: unknown;
  label_name: unknown;
  group_name?: unknown;
}

const text = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

function labelKeys(labels: readonly LabelLike[]): string[] {
  return labels
    .map((l) => JSON.stringify([String(l.label_id), text(l.label_name), text(l.group_name)]))
    .sort();
}

export function messageAnnotations(comment: unknown, labels: readonly LabelLike[]): string {
  return JSON.stringify([text(comment), labelKeys(labels)]);
}

/** `data` undefined: the read did not carry sessionData (legacy), so only the labels are compared. */
export function sessionAnnotations(
  labels: readonly LabelLike[],
  data: readonly { key: unknown; value: unknown }[] | undefined,
): string {
  const entries = data?.map((d) => JSON.stringify([String(d.key), text(d.value)])).sort();
  return JSON.stringify([labelKeys(labels), entries ?? null]);
}
