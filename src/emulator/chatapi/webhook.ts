// Delivery of asynchronous Chat API answers to a channel's webhook: POST of a JSON array of one payload (the
// Prompter's answer options: the payload object itself, `asArray: false`);
// a delivery that gets no answer within the timeout (3 s) or a non-2xx answer is sent again, up to 3 more
// times, so a receiver can see the same questionId up to 4 times. Every attempt is recorded (ground truth).
export interface WebhookSettings {
  /** How long one attempt waits for an answer (ms). */
  timeoutMs: number;
  /** How many times a failed delivery is sent again. */
  resends: number;
  /** Pause before a resend (ms). */
  retryDelayMs: number;
}

export interface WebhookAttempt {
  token: string;
  questionId: string;
  /** 1 for the first delivery, 2.. for resends. */
  attempt: number;
  /** Real time (epoch ms) the attempt was sent. */
  sentAt: number;
  /** The receiver's HTTP status, or why there was none. */
  outcome: number | 'timeout' | 'error' | 'no-webhook';
}

export class WebhookSender {
  readonly attempts: WebhookAttempt[] = [];
  private readonly pending = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  private readonly settings: WebhookSettings;

  constructor(settings: WebhookSettings) {
    this.settings = settings;
  }

  /** Starts delivering `payload` (in the background); `url` undefined records one failed attempt. */
  send(
    token: string,
    url: string | undefined,
    payload: Record<string, unknown>,
    options: { asArray?: boolean } = {},
  ): void {
    const body = JSON.stringify(options.asArray === false ? payload : [payload]);
    const run = this.deliver(token, url, String(payload['questionId']), body).finally(() =>
      this.pending.delete(run),
    );
    this.pending.add(run);
  }

  /** Resolves once every delivery under way has finished (tests wait for the resends). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.idle();
  }

  /** The pause before a resend; cut short when the emulator closes. */
  private pause(): Promise<void> {
    const closing = this.closing.signal;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.settings.retryDelayMs);
      function done() {
        clearTimeout(timer);
        closing.removeEventListener('abort', done);
        resolve();
      }
      closing.addEventListener('abort', done, { once: true });
    });
  }

  private async deliver(token: string, url: string | undefined, questionId: string, body: string) {
    for (let attempt = 1; attempt <= 1 + this.settings.resends; attempt++) {
      if (this.closing.signal.aborted) return;
      const record: WebhookAttempt = {
        token,
        questionId,
        attempt,
        sentAt: Date.now(),
        outcome: 'no-webhook',
      };
      this.attempts.push(record);
      if (url === undefined) return;
      // one controller per attempt, held here with its timer (not AbortSignal.any/timeout: a composed
      // signal can be collected before it fires, and the attempt would then wait for ever)
      const attemptAbort = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        attemptAbort.abort();
      }, this.settings.timeoutMs);
      const onClose = () => attemptAbort.abort();
      this.closing.signal.addEventListener('abort', onClose, { once: true });
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: attemptAbort.signal,
        });
        await response.arrayBuffer().catch(() => undefined);
        record.outcome = response.status;
        if (response.ok) return;
      } catch {
        record.outcome = timedOut ? 'timeout' : 'error';
      } finally {
        clearTimeout(timer);
        this.closing.signal.removeEventListener('abort', onClose);
      }
      if (attempt <= this.settings.resends) await this.pause();
    }
  }
}
