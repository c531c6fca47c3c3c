// Comments on messages: add (or replace) and delete. The comment shows in later message reads and in the
// warehouse's messages.comment after the next sync of the message.
import type { ReporterHttp } from './http.js';

/** `AddCommentDto {questionId, comment}`: the message is named in the path and in the body. */
export async function addComment(http: ReporterHttp, questionId: string, comment: string): Promise<void> {
  await http.json({
    method: 'POST',
    op: `comments/${encodeURIComponent(questionId)}`,
    body: { questionId, comment },
  });
}

export async function deleteComment(http: ReporterHttp, questionId: string): Promise<void> {
  await http.json({ method: 'DELETE', op: `comments/${encodeURIComponent(questionId)}` });
}
