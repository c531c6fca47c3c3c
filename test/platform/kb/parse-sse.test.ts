// The SSE parser kb eval reads streamed generations with: events split anywhere across pieces, CRLF and CR
// line ends (also a CR at the end of one piece and its LF in the next), multi-line data, comments, and an
// event the stream cut before its blank line never dispatched.
import { describe, expect, it } from 'vitest';
import { SseParser } from '../../../src/platform/kb/parse-sse.js';

describe('SseParser', () => {
  it('dispatches events split across pieces', () => {
    const stream =
      'event: start\ndata: {"id":1}\n\n: a comment\nevent: chunk\ndata: {"text":"Hel"}\n\nevent: done\ndata: {"id":1,\ndata: "status":"FINISHED"}\n\n';
    for (const size of [1, 3, 7, stream.length]) {
      const parser = new SseParser();
      const events = [];
      for (let n = 0; n < stream.length; n += size) events.push(...parser.push(stream.slice(n, n + size)));
      expect(events, `pieces of ${size}`).toEqual([
        { event: 'start', data: '{"id":1}' },
        { event: 'chunk', data: '{"text":"Hel"}' },
        { event: 'done', data: '{"id":1,\n"status":"FINISHED"}' },
      ]);
    }
  });

  it('reads CRLF and CR line ends, a CR and its LF in two pieces', () => {
    const parser = new SseParser();
    const events = [
      ...parser.push('event: a\r\ndata: 1\r'),
      ...parser.push('\n\r\nevent: b\rdata: 2\r\r'),
      ...parser.push('data: 3\n\n'),
    ];
    expect(events).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
      { event: 'message', data: '3' },
    ]);
  });

  it('never dispatches an event cut before its blank line', () => {
    const parser = new SseParser();
    expect(parser.push('event: chunk\ndata: {"text":"a"}\n\nevent: done\ndata: {"id":1}\n')).toEqual([
      { event: 'chunk', data: '{"text":"a"}' },
    ]);
  });
});
