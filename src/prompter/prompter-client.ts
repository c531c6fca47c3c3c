// The Prompter API of one channel (PLATFORM-APIS.md section 3): `POST {base}{path}/webhook/prompter_api/{token}`
// with {clientInfo {id}, chatId, text}, answered {questionId}; the answer options arrive later at the webhook
// receiver. The transport is the Reporter's (retries, Retry-After, 429 backoff, REPORTER_RATE_LIMIT_RPM, the
// token redacted from every message), as for the Chat API.
import { z } from 'zod';
import type { ChatApiChannel } from '../chatapi-channels.js';
import type { ChatApiConfig } from '../config.js';
import { EtlError } from '../errors.js';
import type { Logger } from '../log.js';
import { ReporterHttp } from '../reporter/http.js';

const answerSchema = z.object({ questionId: z.string().min(1) }).passthrough();

export interface PrompterQuestionRequest {
  clientId: string;
  chatId: string;
  text: string;
}

export interface PrompterClient {
  readonly channel: string;
  /** Sends one question; resolves to the Prompter's questionId. */
  ask(question: PrompterQuestionRequest): Promise<string>;
  /** Requests sent so far, retries included. */
  readonly requests: number;
  close(): Promise<void>;
}

export function createPrompterClient(options: {
  config: ChatApiConfig;
  channel: ChatApiChannel;
  rateLimitPerMinute?: number | undefined;
  timeoutMs?: number;
  retries?: number;
  log?: Logger;
  backoffBaseMs?: number;
}): PrompterClient {
  const { config, channel } = options;
  const http = new ReporterHttp({
    baseUrl: config.baseUrl,
    token: channel.token,
    api: 'legacy',
    concurrency: 1,
    rateLimitPerMinute: options.rateLimitPerMinute,
    timeoutMs: options.timeoutMs ?? 30_000,
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.log ? { log: options.log } : {}),
    ...(options.backoffBaseMs === undefined ? {} : { backoffBaseMs: options.backoffBaseMs }),
    baseUrlSetting: config.baseUrlSetting,
    sibling: {
      urlPrefix: `${config.baseUrl}${config.path}/webhook/prompter_api/${encodeURIComponent(channel.token)}`,
      name: `Prompter API (channel ${channel.name})`,
      authError: (status, detail) =>
        new EtlError(
          'chatapi.auth',
          `the Prompter API refused the token of channel ${channel.name} with ${status}${detail}: check its entry in ` +
            `REPORTER_CHATAPI_CHANNELS, and REPORTER_CHATAPI_BASE_URL / REPORTER_CHATAPI_PATH (${config.path})`,
        ),
    },
  });
  return {
    channel: channel.name,
    get requests() {
      return http.requests;
    },
    async ask(question) {
      const answer = answerSchema.safeParse(
        await http.json({
          method: 'POST',
          op: '',
          body: { clientInfo: { id: question.clientId }, chatId: question.chatId, text: question.text },
        }),
      );
      if (!answer.success)
        throw new EtlError(
          'prompter.bad_answer',
          `the Prompter API (channel ${channel.name}) answered without a questionId: ${z.prettifyError(answer.error).replace(/\s+/g, ' ')}`,
        );
      return answer.data.questionId;
    },
    close: () => http.close(),
  };
}
