// The SQL of prompter_requests (migration 011): a question recorded as sent or failed, the wait's settlement
// (answered / no_answer), and which of a run's questions have an answer in prompter_answers.
import type { SqlStatement } from '../../warehouse/warehouse.js';

export interface PrompterRequestRow {
  batchId: string;
  seq: number;
  channel: string;
  source: string;
  question: string;
  expectedIntent: string | undefined;
  clientId: string;
  chatId: string;
  questionId: string | undefined;
  sentAt: number;
  outcome: 'sent' | 'failed';
  reason: string | undefined;
}

export function insertPrompterRequest(row: PrompterRequestRow): SqlStatement {
  return {
    sql: `INSERT INTO prompter_requests (batch_id, seq, channel, source, question, expected_intent, client_id,
            chat_id, question_id, sent_at, outcome, reason, settled_at)
          VALUES ($batch_id, $seq, $channel, $source, $question, $expected_intent, $client_id, $chat_id,
            $question_id, $sent_at, $outcome, $reason, CASE WHEN $outcome = 'failed' THEN $sent_at END)`,
    params: {
      batch_id: row.batchId,
      seq: row.seq,
      channel: row.channel,
      source: row.source,
      question: row.question,
      expected_intent: row.expectedIntent ?? null,
      client_id: row.clientId,
      chat_id: row.chatId,
      question_id: row.questionId ?? null,
      sent_at: new Date(row.sentAt),
      outcome: row.outcome,
      reason: row.reason ?? null,
    },
  };
}

/** The question ids of the run still `sent` that now have an answer. */
export const SELECT_NEWLY_ANSWERED = `
  SELECT r.question_id
  FROM prompter_requests r
  WHERE r.batch_id = $batch_id AND r.outcome = 'sent'
    AND EXISTS (SELECT 1 FROM prompter_answers a WHERE a.question_id = r.question_id)`;

/** Marks the run's questions answered (`answered` true) or, at the end of the wait, the rest no_answer. */
export function settlePrompterRequests(
  batchId: string,
  questionIds: readonly string[] | 'rest',
  now: number,
): SqlStatement {
  if (questionIds === 'rest')
    return {
      sql: `UPDATE prompter_requests SET outcome = 'no_answer', settled_at = $now
            WHERE batch_id = $batch_id AND outcome = 'sent'`,
      params: { batch_id: batchId, now: new Date(now) },
    };
  return {
    sql: `UPDATE prompter_requests SET outcome = 'answered', settled_at = $now
          WHERE batch_id = $batch_id AND outcome = 'sent' AND list_contains($ids, question_id)`,
    params: { batch_id: batchId, now: new Date(now), ids: questionIds },
  };
}
