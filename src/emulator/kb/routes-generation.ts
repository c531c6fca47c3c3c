// Retrieval and generation: `POST /retrieve`, `POST /query` (answers once finished), `POST /async/query`,
// `GET /query/{queryId}?waitTimeSeconds=` (long poll), `POST /query/{queryId}/cancel`, and the chat
// operations (create/get, retrieve, sync/async query, status, retry). A `queryFail` fault makes a
// submitted generation FAIL; retries run the same record again.
import { KbError, kbBadRequest, kbNotFound } from './kb-error.js';
import { chunkWire, type KbAsk, parseAsk, retrieveChunks, retryQuery, submitQuery } from './kb-generation.js';
import { isWorking, type KbQuery, queryStatus, queryWire } from './kb-queries.js';
import { idParam, type KbContext, type KbRoute, waitSeconds } from './kb-router.js';
import type { KbChat } from './kb-service.js';

/** Whether a scripted or rated `queryFail` fault applies to this request. */
export function takeQueryFault(ctx: KbContext): boolean {
  return (
    ctx.emulator.faults.take(['queryFail'], { path: `kb/${ctx.path}`, method: ctx.method }) !== undefined
  );
}

export function chatOf(ctx: KbContext): KbChat {
  const id = idParam(ctx, 'chatId');
  const chat = ctx.kb.chats.get(id);
  if (!chat || chat.projectId !== ctx.projectId) throw kbNotFound('chat', id);
  return chat;
}

function queryOf(ctx: KbContext, chat?: KbChat): KbQuery {
  const id = idParam(ctx, 'queryId');
  const q = ctx.kb.queries.get(id);
  if (!q || q.projectId !== ctx.projectId || (chat !== undefined && q.chatId !== chat.id))
    throw kbNotFound('query', id);
  return q;
}

/** Chat bodies carry no history (the chat's own is used). */
function chatAsk(ctx: KbContext): KbAsk {
  return { ...parseAsk(ctx.body), history: [] };
}

async function answerWhenDone(ctx: KbContext, q: KbQuery): Promise<{ body: unknown }> {
  await ctx.kb.waits.wait(q, q.processingMs + 1000);
  return { body: queryWire(q) };
}

/** The status call: the parameters checked first, then the record, held up to waitTimeSeconds. */
async function longPoll(ctx: KbContext, find: () => KbQuery): Promise<{ body: unknown }> {
  const seconds = waitSeconds(ctx.query);
  const q = find();
  await ctx.kb.waits.wait(q, seconds * 1000);
  return { body: queryWire(q) };
}

function chatWire(chat: KbChat): Record<string, unknown> {
  return { id: chat.id, name: chat.name, settings: structuredClone(chat.settings) };
}

export function generationRoutes(): KbRoute[] {
  return [...listQueryRoutes(), ...listChatRoutes(), ...listChatQueryRoutes()];
}

// retrieval and generation outside a chat: submit, long-poll, cancel
function listQueryRoutes(): KbRoute[] {
  return [
    {
      method: 'POST',
      path: 'retrieve',
      op: 'retrieve',
      access: 'project',
      handler(ctx) {
        const chunks = retrieveChunks(ctx.kb, ctx.projectId!, ctx.now, parseAsk(ctx.body));
        return { body: { chunks: chunks.map(chunkWire) } };
      },
    },
    {
      method: 'POST',
      path: 'query',
      op: 'generate',
      access: 'project',
      generation: true,
      handler(ctx) {
        const q = submitQuery(ctx.kb, ctx.projectId!, ctx.now, parseAsk(ctx.body), {
          fault: takeQueryFault(ctx),
        });
        return answerWhenDone(ctx, q);
      },
    },
    {
      method: 'POST',
      path: 'async/query',
      op: 'generateAsync',
      access: 'project',
      generation: true,
      handler(ctx) {
        const q = submitQuery(ctx.kb, ctx.projectId!, ctx.now, parseAsk(ctx.body), {
          fault: takeQueryFault(ctx),
        });
        return { body: queryWire(q) };
      },
    },
    {
      method: 'GET',
      path: 'query/{queryId}',
      op: 'getQueryStatus',
      access: 'project',
      handler: (ctx) => longPoll(ctx, () => queryOf(ctx)),
    },
    {
      method: 'POST',
      path: 'query/{queryId}/cancel',
      op: 'cancelQuery',
      access: 'project',
      handler(ctx) {
        const q = queryOf(ctx);
        if (isWorking(queryStatus(q))) {
          q.canceledAfterMs = Math.max(0, Date.now() - q.submittedReal);
          ctx.kb.waits.wake(q.id);
        }
        return { body: queryWire(q) };
      },
    },
  ];
}

// chats: create and read
function listChatRoutes(): KbRoute[] {
  return [
    {
      method: 'POST',
      path: 'chat',
      op: 'createChat',
      access: 'project',
      handler(ctx) {
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        if (typeof body !== 'object' || Array.isArray(body))
          throw kbBadRequest('body', 'expected a JSON object');
        if (body['name'] !== undefined && typeof body['name'] !== 'string')
          throw kbBadRequest('name', 'expected a string');
        const settings = body['settings'] ?? {};
        if (typeof settings !== 'object' || settings === null || Array.isArray(settings))
          throw kbBadRequest('settings', 'expected an object');
        const id = ctx.kb.newChatId();
        const chat: KbChat = {
          id,
          projectId: ctx.projectId!,
          name: (body['name'] as string | undefined) ?? `Chat ${id}`,
          settings: structuredClone(settings) as Record<string, unknown>,
          queryIds: [],
        };
        ctx.kb.chats.set(id, chat);
        return { body: chatWire(chat) };
      },
    },
    {
      method: 'GET',
      path: 'chat/{chatId}',
      op: 'getChat',
      access: 'project',
      handler: (ctx) => ({ body: chatWire(chatOf(ctx)) }),
    },
  ];
}

// retrieval and generation in a chat (its history used): submit, long-poll, retry
function listChatQueryRoutes(): KbRoute[] {
  return [
    {
      method: 'POST',
      path: 'chat/{chatId}/retrieve',
      op: 'chatRetrieve',
      access: 'project',
      handler(ctx) {
        const chat = chatOf(ctx);
        const chunks = retrieveChunks(ctx.kb, ctx.projectId!, ctx.now, chatAsk(ctx), chat);
        return { body: { chunks: chunks.map(chunkWire) } };
      },
    },
    {
      method: 'POST',
      path: 'chat/{chatId}/query',
      op: 'chatGenerate',
      access: 'project',
      generation: true,
      handler(ctx) {
        const chat = chatOf(ctx);
        const q = submitQuery(ctx.kb, ctx.projectId!, ctx.now, chatAsk(ctx), {
          chat,
          fault: takeQueryFault(ctx),
        });
        return answerWhenDone(ctx, q);
      },
    },
    {
      method: 'POST',
      path: 'async/chat/{chatId}/query',
      op: 'chatGenerateAsync',
      access: 'project',
      generation: true,
      handler(ctx) {
        const chat = chatOf(ctx);
        const q = submitQuery(ctx.kb, ctx.projectId!, ctx.now, chatAsk(ctx), {
          chat,
          fault: takeQueryFault(ctx),
        });
        return { body: queryWire(q) };
      },
    },
    {
      method: 'GET',
      path: 'chat/{chatId}/query/{queryId}',
      op: 'getChatQueryStatus',
      access: 'project',
      handler: (ctx) => longPoll(ctx, () => queryOf(ctx, chatOf(ctx))),
    },
    {
      method: 'POST',
      path: 'chat/{chatId}/query/{queryId}/retry',
      op: 'retryChatQuery',
      access: 'project',
      generation: true,
      handler(ctx) {
        const chat = chatOf(ctx);
        const q = queryOf(ctx, chat);
        if (isWorking(queryStatus(q)))
          throw new KbError(
            400,
            'kb.bad_request.query_in_progress',
            `query ${q.id} is still ${queryStatus(q)}`,
          );
        return { body: queryWire(retryQuery(ctx.kb, q, chat, ctx.now, takeQueryFault(ctx))) };
      },
    },
  ];
}
