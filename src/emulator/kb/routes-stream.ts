// `POST /query/stream`: a generation as Server-Sent Events: `start` (the record as submitted), `chunk`
// events (`{text}`, pieces that join to the response) paced over the processing time, then `done` (the final
// QueryRecord) or `error` (`{code, description}`: a failed or cancelled generation). A `streamCut` fault
// drops the connection after `count` chunks (default 1), as a proxy cutting a stream would.
import type { ServerResponse } from 'node:http';
import { parseAsk, submitQuery } from './kb-generation.js';
import { queryStatus, queryWire } from './kb-queries.js';
import type { KbRoute } from './kb-router.js';
import { takeQueryFault } from './routes-generation.js';

function sendEvent(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** The response cut into pieces of three words (each keeps its trailing space: they join back exactly). */
export function responsePieces(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const pieces: string[] = [];
  for (let n = 0; n < words.length; n += 3) pieces.push(words.slice(n, n + 3).join(''));
  return pieces;
}

export function streamRoutes(): KbRoute[] {
  return [
    {
      method: 'POST',
      path: 'query/stream',
      op: 'generateStream',
      access: 'project',
      generation: true,
      async handler(ctx) {
        const q = submitQuery(ctx.kb, ctx.projectId!, ctx.now, parseAsk(ctx.body), {
          fault: takeQueryFault(ctx),
        });
        const cut = ctx.emulator.faults.take(['streamCut'], { path: `kb/${ctx.path}`, method: ctx.method });
        const res = ctx.res;
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
        sendEvent(res, 'start', queryWire(q));
        const pieces = q.outcome.failure === undefined ? responsePieces(q.outcome.response ?? '') : [];
        const pace = q.processingMs / (pieces.length + 1);
        for (let n = 0; n < pieces.length; n++) {
          await ctx.kb.waits.sleep(pace);
          // cut after a pause, so the chunks already written reach the client first
          if (cut && n >= (cut.count ?? 1)) {
            res.destroy();
            return { raw: true };
          }
          if (res.destroyed) return { raw: true };
          if (queryStatus(q) === 'CANCELED') break;
          sendEvent(res, 'chunk', { text: pieces[n] });
        }
        if (cut && pieces.length <= (cut.count ?? 1) && q.outcome.failure === undefined) {
          await ctx.kb.waits.sleep(pace);
          res.destroy();
          return { raw: true };
        }
        await ctx.kb.waits.wait(q, q.processingMs + 1000);
        const final = queryWire(q);
        if (final['status'] === 'FINISHED') sendEvent(res, 'done', final);
        else {
          const [code, ...rest] = String(final['comment'] ?? 'kb.query.failed: the generation failed').split(
            ': ',
          );
          sendEvent(res, 'error', { code, description: rest.join(': ') });
        }
        res.end();
        return { raw: true };
      },
    },
  ];
}
