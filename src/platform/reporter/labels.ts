// The label catalogues of the Reporter API: session labels, message labels and their groups: read the
// catalogue, create, update, delete. A message label lives in a group (found by id, or by name, a new
// name creating the group); groups have no create operation of their own. Answers are parsed with zod.
import { z } from 'zod';
import { parseAnswer, parseCreated } from './parse-answer.js';
import type { ReporterHttp } from './reporter-http.js';
import { messageLabel, messageLabelGroup, sessionLabel } from './schemas.js';

export type SessionLabel = z.infer<typeof sessionLabel>;
export type MessageLabel = z.infer<typeof messageLabel>;
export type LabelGroup = z.infer<typeof messageLabelGroup>;

/** `MessageLabelCreate`: the group by id (must exist) or by name (created when new). */
export interface NewMessageLabel {
  name: string;
  priority: number;
  group: { id: number; name?: string } | { name: string; priority?: number };
}

const list = <T extends z.ZodType>(schema: T) =>
  z
    .array(schema)
    .nullish()
    .transform((v) => v ?? []);

// session labels

export async function readSessionLabels(http: ReporterHttp): Promise<SessionLabel[]> {
  const op = 'logs/labels/sessions';
  return parseAnswer(op, list(sessionLabel), await http.json({ method: 'GET', op }));
}

export async function createSessionLabel(
  http: ReporterHttp,
  label: { name: string; priority: number },
): Promise<SessionLabel> {
  const op = 'logs/labels/sessions';
  const answer = await http.write({ method: 'POST', op, body: label });
  return parseCreated(op, sessionLabel, answer, 'look it up with `labels list`');
}

/** Replaces the name and priority of a session label (`SessionLabelCreate`: both required). */
export async function updateSessionLabel(
  http: ReporterHttp,
  id: number,
  label: { name: string; priority: number },
): Promise<void> {
  await http.json({ method: 'PUT', op: `logs/labels/sessions/${id}`, body: label });
}

/** Deletes a session label; the platform removes it from every session. */
export async function deleteSessionLabel(http: ReporterHttp, id: number): Promise<void> {
  await http.json({ method: 'DELETE', op: `logs/labels/sessions/${id}` });
}

// message labels

export async function readMessageLabels(http: ReporterHttp): Promise<MessageLabel[]> {
  const op = 'message/labels';
  return parseAnswer(op, list(messageLabel), await http.json({ method: 'GET', op }));
}

export async function createMessageLabel(http: ReporterHttp, label: NewMessageLabel): Promise<MessageLabel> {
  const op = 'message/labels';
  const answer = await http.write({ method: 'POST', op, body: label });
  return parseCreated(op, messageLabel, answer, 'look it up with `labels list`');
}

/** Replaces the name, group and priority of a message label (`MessageLabelUpdate`: all required). */
export async function updateMessageLabel(
  http: ReporterHttp,
  id: number,
  label: { name: string; groupId: number; priority: number },
): Promise<void> {
  await http.json({ method: 'PUT', op: `message/labels/${id}`, body: label });
}

/** Deletes a message label; the platform removes it from every message. */
export async function deleteMessageLabel(http: ReporterHttp, id: number): Promise<void> {
  await http.json({ method: 'DELETE', op: `message/labels/${id}` });
}

// label groups

export async function readLabelGroups(http: ReporterHttp): Promise<LabelGroup[]> {
  const op = 'message/labels/groups';
  return parseAnswer(op, list(messageLabelGroup), await http.json({ method: 'GET', op }));
}

/** Replaces the name and priority of a group (`LogLabelGroupCreate`: both required). */
export async function updateLabelGroup(
  http: ReporterHttp,
  id: number,
  group: { name: string; priority: number },
): Promise<void> {
  await http.json({ method: 'PUT', op: `message/labels/groups/${id}`, body: group });
}

/** Deletes a group with all its labels; the platform removes them from every message. */
export async function deleteLabelGroup(http: ReporterHttp, id: number): Promise<void> {
  await http.json({ method: 'DELETE', op: `message/labels/groups/${id}` });
}
