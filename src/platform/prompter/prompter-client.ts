// The Prompter API of one channel (PLATFORM-APIS.md section 3): `POST {base}{path}/webhook/prompter_api/{token}`
// with {clientInfo {id}, chatId, text}, answered {questionId}; the answer options arrive later at the webhook
// receiver. Its client is a profile of src/http/ (the token in the path; retries, Retry-After, 429 backoff,
// REPORTER_RATE_LIMIT_RPM, the token redacted from every message), as for the Chat API. A question is a write:
// a 2xx answer that cannot be read is a question asked (never asked again), returned without its questionId.
import { z } from 'zod';
import type { ChatApiConfig } from '../../config.js';
import { EtlError } from '../../errors.js';
import { PLATFORM_ERROR_SHAPES } from '../../http/error-shapes.js';
import { HttpTransport } from '../../http/http-transport.js';
import type { Logger } from '../../log.js';
import type { ChatApiChannel } from '../../settings/chatapi-channels.js';

const answerSchema = z.object({ questionId: z.string().min(1) }).passthrough();

export interface PrompterQuestionRequest {
  clientId: string;
  chatId: string;
  text: string;
}

/** A question the Prompter took: its questionId, or (its answer unreadable) none and why. */
export type PrompterAsked = { questionId: string } | { questionId: undefined; unreadable: string };

export interface PrompterClient {
  readonly channel: string;
  /** Sends one question (once: never again after a 2xx, even one that cannot be read). */
  ask(question: PrompterQuestionRequest): Promise<PrompterAsked>;
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
  const prefix = `${config.baseUrl}${config.path}/webhook/prompter_api/${encodeURIComponent(channel.token)}`;
  const http = new HttpTransport({
    baseUrl: config.baseUrl,
    secret: channel.token,
    concurrency: 1,
    rateLimitPerMinute: options.rateLimitPerMinute,
    timeoutMs: options.timeoutMs ?? 30_000,
    retries: options.retries,
    log: options.log,
    backoffBaseMs: options.backoffBaseMs,
    profile: {
      name: `Prompter API (channel ${channel.name})`,
      auth: { kind: 'path' },
      secretName: 'token',
      baseUrlSetting: config.baseUrlSetting ?? 'REPORTER_BASE_URL',
      urlPrefix: () => prefix,
      errorShapes: PLATFORM_ERROR_SHAPES,
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
      const sent = await http.write({
        method: 'POST',
        op: '',
        body: { clientInfo: { id: question.clientId }, chatId: question.chatId, text: question.text },
      });
      if (sent.unreadable !== undefined) return { questionId: undefined, unreadable: sent.unreadable };
      const answer = answerSchema.safeParse(sent.value);
      if (!answer.success)
        throw new EtlError(
          'prompter.bad_answer',
          `the Prompter API (channel ${channel.name}) answered without a questionId: ${z.prettifyError(answer.error).replace(/\s+/g, ' ')}`,
        );
      return { questionId: answer.data.questionId };
    },
    close: () => http.close(),
  };
}
