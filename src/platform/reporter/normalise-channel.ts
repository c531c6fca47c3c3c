// One spelling of a channel name for the warehouse and for --channel, whichever way the API or a person wrote
// it (CHAT_WIDGET, ChatWidget, chatwidget). Invariant: lower case, no underscores.

/** `CHAT_WIDGET`, `ChatWidget` and `chatwidget` are one channel: lower case, no underscores. */
export function normaliseChannel(name: string): string {
  return name.replace(/_/g, '').toLowerCase();
}
