// `prompter ask`'s work: sends each question to the Prompter API one after the other (the client is rate-
// limited and retries like every client), records each in prompter_requests as it goes (sent with its
// questionId, or failed with the reason), then waits up to `waitMs` for the answers to reach prompter_answers
// (through the webhook receiver, in this process or another) and marks the ones still unanswered no_answer.
// A question whose 2xx answer could not be read was asked all the same: recorded sent with that note and no
// questionId (its answers cannot be matched, so it is not waited for), never asked again.
// Invariant: a question is recorded right after its request settles, so a crash loses at most one.
import type { EtlError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { PrompterClient } from '../../platform/prompter/prompter-client.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import {
  insertPrompterRequest,
  SELECT_NEWLY_ANSWERED,
  settlePrompterRequests,
} from './prompter-requests-sql.js';
import type { PrompterQuestion } from './read-questions.js';

export type UsePrompterWarehouse = <T>(fn: (warehouse: Warehouse) => Promise<T>) => Promise<T>;

export interface AskPrompterOptions {
  client: PrompterClient;
  useWarehouse: UsePrompterWarehouse;
  questions: readonly PrompterQuestion[];
  batchId: string;
  /** What the questions came from: the file's name, or `sql`. */
  source: string;
  /** clientInfo.id of every question. */
  clientId: string;
  /** How long to wait for the answers after the last question was sent (ms). */
  waitMs: number;
  /** How often the warehouse is looked at while waiting (ms, default 500). */
  pollMs?: number;
  /** Called before each look (e.g. the in-process receiver loads its spool). */
  beforeLook?: () => Promise<void>;
  /** Told after each question sent and each look at the answers: for a progress line on a terminal. */
  onProgress?: (progress: AskProgress) => void;
  log: Logger;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** Where `prompter ask` is: sending the questions, or waiting for their answers (with the seconds left). */
export type AskProgress =
  | { phase: 'sending'; done: number; total: number; failed: number }
  | { phase: 'waiting'; answered: number; sent: number; secondsLeft: number };

/** The progress line of `prompter ask` on a terminal: "sending 3/6", then "answers 2/6 · waiting up to 12 s". */
export function describeAskProgress(p: AskProgress): string {
  if (p.phase === 'sending')
    return `prompter ask: sending ${p.done}/${p.total}${p.failed > 0 ? ` (${p.failed} failed)` : ''}`;
  return `prompter ask: answers ${p.answered}/${p.sent} · waiting up to ${p.secondsLeft} s`;
}

export interface AskPrompterSummary {
  batchId: string;
  asked: number;
  sent: number;
  failed: number;
  /** Sent, but the answer naming its questionId could not be read: its answers cannot be matched. */
  unreadable: number;
  answered: number;
  noAnswer: number;
}

export async function askPrompter(options: AskPrompterOptions): Promise<AskPrompterSummary> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const summary: AskPrompterSummary = {
    batchId: options.batchId,
    asked: options.questions.length,
    sent: 0,
    failed: 0,
    unreadable: 0,
    answered: 0,
    noAnswer: 0,
  };
  for (const [n, question] of options.questions.entries()) {
    const seq = n + 1;
    const chatId = `${options.batchId}-${seq}`;
    const sentAt = now();
    let questionId: string | undefined;
    let reason: string | undefined;
    let refused: unknown;
    let unreadable = false;
    try {
      const asked = await options.client.ask({ clientId: options.clientId, chatId, text: question.text });
      questionId = asked.questionId;
      if (asked.questionId === undefined) {
        unreadable = true;
        reason = asked.unreadable;
      }
    } catch (error) {
      const code = (error as Partial<EtlError>).code;
      reason = `${code ? `${code}: ` : ''}${(error as Error).message}`;
      // a refused token fails every question alike: the run stops once this one is recorded
      if (code === 'chatapi.auth') refused = error;
      else options.log.warn({ seq, reason }, 'prompter question failed');
    }
    await options.useWarehouse((warehouse) =>
      warehouse.execute([
        insertPrompterRequest({
          batchId: options.batchId,
          seq,
          channel: options.client.channel,
          source: options.source,
          question: question.text,
          expectedIntent: question.expectedIntent,
          clientId: options.clientId,
          chatId,
          questionId,
          sentAt,
          outcome: questionId === undefined && !unreadable ? 'failed' : 'sent',
          reason,
        }),
      ]),
    );
    if (refused !== undefined) throw refused;
    if (unreadable) summary.unreadable++;
    if (questionId === undefined && !unreadable) summary.failed++;
    else summary.sent++;
    options.onProgress?.({ phase: 'sending', done: seq, total: summary.asked, failed: summary.failed });
  }
  /** The questions whose answers can be matched (by questionId). */
  const awaited = summary.sent - summary.unreadable;
  const deadline = now() + options.waitMs;
  const pollMs = options.pollMs ?? 500;
  while (summary.answered < awaited) {
    await options.beforeLook?.();
    const answered = await options.useWarehouse(async (warehouse) => {
      const rows = await warehouse.query(SELECT_NEWLY_ANSWERED, { batch_id: options.batchId });
      const ids = rows.map((r) => String(r['question_id']));
      if (ids.length > 0) await warehouse.execute([settlePrompterRequests(options.batchId, ids, now())]);
      return ids.length;
    });
    summary.answered += answered;
    options.onProgress?.({
      phase: 'waiting',
      answered: summary.answered,
      sent: awaited,
      secondsLeft: Math.max(0, Math.ceil((deadline - now()) / 1000)),
    });
    if (summary.answered >= awaited || now() >= deadline) break;
    await sleep(Math.min(pollMs, Math.max(0, deadline - now())));
  }
  await options.useWarehouse((warehouse) =>
    warehouse.execute([settlePrompterRequests(options.batchId, 'rest', now())]),
  );
  summary.noAnswer = summary.sent - summary.answered;
  return summary;
}
