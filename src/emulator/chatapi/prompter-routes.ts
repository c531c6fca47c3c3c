// The Prompter API's one operation, `POST {base}/chatapi/webhook/prompter_api/{token}` (and under
// `/chatadapter`): body {clientInfo {id, firstName?, lastName?}, chatId, text}; answer 200 {questionId}; the
// answer options go to the channel's Prompter webhook (prompter.ts). Unknown token: 401 like the Chat API.
import { ApiError } from '../api-error.js';
import type { Route, RouteContext } from '../route.js';
import type { PrompterQuestion } from './prompter.js';

function bad(parameter: string, message: string): ApiError {
  return new ApiError(400, 'chatapi.bad_request.invalid_parameter', `${parameter}: ${message}`, {
    parameter,
  });
}

function nonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') throw bad(name, 'expected a non-empty string');
  return value;
}

function optional(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw bad(name, 'expected a string');
  return value;
}

/** The request body, checked. */
function questionOf(ctx: RouteContext): PrompterQuestion {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('body', 'expected a JSON object');
  const fields = body as Record<string, unknown>;
  const info = fields['clientInfo'];
  if (typeof info !== 'object' || info === null || Array.isArray(info))
    throw bad('clientInfo', 'expected an object with id');
  const client = info as Record<string, unknown>;
  const firstName = optional(client['firstName'], 'clientInfo.firstName');
  const lastName = optional(client['lastName'], 'clientInfo.lastName');
  return {
    clientInfo: {
      id: nonEmpty(client['id'], 'clientInfo.id'),
      ...(firstName === undefined ? {} : { firstName }),
      ...(lastName === undefined ? {} : { lastName }),
    },
    chatId: nonEmpty(fields['chatId'], 'chatId'),
    text: nonEmpty(fields['text'], 'text'),
  };
}

export function prompterRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: 'webhook/prompter_api',
      op: 'prompterAsk',
      handler(ctx) {
        const chat = ctx.emulator.chatApi;
        const channel = chat.channel(ctx.token);
        return { body: { questionId: chat.prompter.ask(channel, questionOf(ctx)) } };
      },
    },
  ];
}
