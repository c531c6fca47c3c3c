// Chat API channels of the emulated platform: a token (`<8 alphanumerics>:<40 hex>`), the project whose
// sessions its dialogues become, the webhook its asynchronous answers go to and the one its Prompter answer
// options go to. Every project has one channel by default, with a deterministic token (defaultChatApiToken)
// so demos and tests can use it.
import { createHash } from 'node:crypto';

export interface ChatApiChannelOptions {
  token: string;
  /** The project whose sessions (channel type `chatapi`) the dialogues become; the first project by default. */
  project?: string;
  /** Where asynchronous answers are POSTed (none: they are only recorded as failed deliveries). */
  webhookUrl?: string;
  /** Where the Prompter API's answer options are POSTed (none: only recorded as failed deliveries). */
  prompterWebhookUrl?: string;
}

/** The token form the platform issues. */
export const CHATAPI_TOKEN_FORM = /^[A-Za-z0-9]{8}:[0-9a-f]{40}$/;

/** The default token of a project's n-th Chat API channel (n from 1): `emuchat<n>:` and 40 hex of its name. */
export function defaultChatApiToken(project: string, n = 1): string {
  const hex = createHash('sha1').update(`emulator-chatapi:${project}:${n}`).digest('hex');
  return `emuchat${n % 10}:${hex}`;
}
