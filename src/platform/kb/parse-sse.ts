// A Server-Sent Events parser (the WHATWG event stream format) fed text as it arrives: `event:` names the
// event (default `message`), `data:` lines are joined with newlines, a blank line dispatches, `:` starts a
// comment, CR, LF and CRLF all end a line. Nothing is dispatched for a block the stream cut before its
// blank line: an unterminated event is not an event.

export interface SseEvent {
  event: string;
  data: string;
}

export class SseParser {
  private buffer = '';
  private eventName = '';
  private data: string[] = [];
  private sawData = false;
  /** A CR ended the last chunk: an LF opening the next one belongs to it. */
  private pendingCr = false;

  /** Feeds a piece of the stream; returns the events it completed. */
  push(text: string): SseEvent[] {
    let input = text;
    if (this.pendingCr && input.startsWith('\n')) input = input.slice(1);
    this.pendingCr = false;
    this.buffer += input;
    const out: SseEvent[] = [];
    for (;;) {
      const at = this.buffer.search(/[\r\n]/);
      if (at < 0) break;
      const line = this.buffer.slice(0, at);
      let next = at + 1;
      if (this.buffer[at] === '\r') {
        if (at + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer[at + 1] === '\n') next = at + 2;
      }
      this.buffer = this.buffer.slice(next);
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      const event = this.sawData
        ? { event: this.eventName || 'message', data: this.data.join('\n') }
        : undefined;
      this.eventName = '';
      this.data = [];
      this.sawData = false;
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.eventName = value;
    else if (field === 'data') {
      this.data.push(value);
      this.sawData = true;
    }
    return undefined;
  }
}
