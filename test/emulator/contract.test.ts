// Contract tests: every path + method of the project's spec (spec/reporter-api.yaml) is called on the running
// emulator: the legacy generation (token in the path), the v1 generation (bearer; report creation through the
// async prefix) and the seed short forms; each 200 answer is validated against the response schema of that
// operation in the spec; also async events and ErrorDto. The table below says how to call each operation
// (keyed by the path after the generation's prefix); an operation of the spec missing from it fails.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_V1_TOKEN, defaultLegacyToken } from '../../src/emulator/emulator.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { range, TEST_NOW } from '../helpers/emulator-client.js';
import { loadSpec, type SpecOperation } from '../helpers/openapi-validator.js';

type Generation = 'legacy' | 'v1';
type Query = Record<string, string | number | boolean | string[] | undefined>;

const PROJECT = 'shop-bot';
const LEGACY_PREFIX = '/api/reporter/p/{token}/';
const V1_PREFIX = '/api/v1/reporter/';
const V1_ASYNC_PREFIX = '/api/v1/async/reporter/';
const SEED_PREFIX = '/reporter/';
const EVENTS_PATH = '/api/v1/async/events';
const DAY = 86_400_000;
const FROM = TEST_NOW - 2 * DAY;

// The emulator promises yyyy-MM-ddTHH:mm:ss.SSSZ in UTC (docs/emulator.md): date-times checked strictly.
// Properties the spec does not name are allowed; CONTRACT_EXTRA_PROPERTIES=error lists them (a diagnosis).
const extraProperties = process.env['CONTRACT_EXTRA_PROPERTIES'] === 'error' ? 'error' : 'allow';
const spec = loadSpec({ dateTime: 'strict', extraProperties });
const ALL_OPS: SpecOperation[] = spec.operations();
/** The operations of each generation in the spec: v1 report creation lives under the async prefix. */
const GENERATION_OPS: Record<Generation, SpecOperation[]> = {
  legacy: ALL_OPS.filter((o) => o.path.startsWith(LEGACY_PREFIX)),
  v1: ALL_OPS.filter((o) => o.path.startsWith(V1_PREFIX) || o.path.startsWith(V1_ASYNC_PREFIX)),
};
const SEED_OPS = ALL_OPS.filter((o) => o.path.startsWith(SEED_PREFIX));

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

interface Request {
  /** Concrete path relative to the generation's prefix; defaults to the spec path (if without {params}). */
  path?: string;
  query?: Query;
  body?: unknown;
}

/** Real records of the emulated project, picked once from messages/filter. */
interface Fixtures {
  sessionId: string;
  botId: string;
  clientId: string;
  questionId: string;
}

interface Tools {
  gen: Generation;
  fx: Fixtures;
  /** Calls a reporter operation of the generation under test. */
  send(method: string, path: string, request?: Omit<Request, 'path'>): Promise<Answer>;
  /** Like send, but throws unless 200: for the setup a case needs. */
  setup(method: string, path: string, request?: Omit<Request, 'path'>): Promise<Answer>;
  unique(prefix: string): string;
  createMessageLabel(): Promise<{ id: number; groupId: number }>;
  createSessionLabel(): Promise<number>;
  /** An experiment with status RUNNING (an existing one, or created). */
  runningExperiment(): Promise<string>;
  createExperiment(): Promise<string>;
  /** A report task id: legacy from the creation answer, v1 from the payload of its async events. */
  createReportTask(): Promise<string>;
}

interface Case {
  /** operationId of the spec, to catch a table row pointing at the wrong operation. */
  op: string;
  request(t: Tools): Request | Promise<Request>;
  /** The array in the answer that must not be empty, so the schema check is not vacuous. */
  rows?(body: any): unknown;
  /** Report creation: v1 answers AsyncTaskDto (client-list: headers) on /api/v1/async/reporter/reports/<kind>. */
  report?: boolean;
}

const reportBody = (fileType: 'CSV' | 'XLSX') => ({
  filters: [range('SESSION_START_TIME', FROM, TEST_NOW)],
  settings: { fileType, withHeader: true },
});
const sessionWindow = { filters: [range('SESSION_START_TIME', FROM, TEST_NOW)] };
const messageWindow = { filters: [range('MESSAGE_TIME', FROM, TEST_NOW)] };
const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** How to call each operation of the legacy spec, keyed `METHOD path` (path relative to the token). */
const CASES: Record<string, Case> = {
  // simple statistics
  'GET stats/switched-sessions': {
    op: 'getSwitchedSessionCountByDay',
    request: () => ({
      query: { dateFrom: day(FROM), dateTo: day(TEST_NOW - DAY), transferToOperatorMethod: 'SWITCH' },
    }),
    rows: (b) => b.stats,
  },
  'GET stats/telephony': {
    op: 'getTelephonyStats',
    request: () => ({ query: { dateFrom: day(FROM), dateTo: day(TEST_NOW - DAY) } }),
    rows: (b) => b.incomingCount,
  },
  'GET stats/unique-clients': { op: 'getAllProjectsUniqueClients', request: () => ({}), rows: (b) => b },
  // advanced statistics
  'POST stats/messages/with-advanced-filters': {
    op: 'getMessageStats',
    request: () => ({ query: { intervalType: 'DAY', step: 1 }, body: messageWindow }),
    rows: (b) => b.stats,
  },
  'POST stats/sessions/with-advanced-filters': {
    op: 'getSessionStats',
    request: () => ({ query: { intervalType: 'HOUR', step: 6 }, body: sessionWindow }),
    rows: (b) => b.stats,
  },
  'POST stats/session-labels': {
    op: 'getSessionLabelStats',
    request: () => ({ query: { intervalType: 'DAY' }, body: sessionWindow }),
    rows: (b) => b.stats,
  },
  'POST stats/log-labels': {
    op: 'getLogLabelStats',
    request: () => ({ query: { intervalType: 'DAY' }, body: messageWindow }),
    rows: (b) => b.stats,
  },
  // sessions
  'POST sessions/filter': {
    op: 'getSessionDataByFilter',
    request: (t) => ({
      query: {
        page: 0,
        size: 300,
        needToReturnSessionLabels: true,
        ...(t.gen === 'v1' ? { needToReturnSessionData: true } : {}),
      },
      body: sessionWindow,
    }),
    rows: (b) => b.sessions,
  },
  'GET projects/sessions/count': { op: 'countAllProjectsSessions', request: () => ({}), rows: (b) => b },
  // clients
  'POST clients/filter': {
    op: 'getClientDataByFilter',
    request: () => ({ query: { page: 0, size: 200 }, body: {} }),
    rows: (b) => b.clients,
  },
  'PUT clients/block': {
    op: 'blockClient',
    request: (t) => ({
      query: { botId: t.fx.botId, clientId: t.fx.clientId },
      body: { blockedBy: 7, blockReason: 'contract test' },
    }),
  },
  'PUT clients/unblock': {
    op: 'unblockClient',
    async request(t) {
      const query = { botId: t.fx.botId, clientId: t.fx.clientId };
      await t.setup('PUT', 'clients/block', { query, body: { blockedBy: 7, blockReason: 'to unblock' } });
      return { query };
    },
  },
  'POST clients/all-for-bot': {
    op: 'getAllClientDataForBot',
    request: (t) => ({
      query: { botId: t.fx.botId, dateTo: new Date(TEST_NOW).toISOString(), page: 0, size: 100 },
    }),
    rows: (b) => b.clients,
  },
  // messages
  'POST messages/filter': {
    op: 'getMessageDataByFilter',
    request: () => ({ query: { page: 0, size: 500 }, body: messageWindow }),
    rows: (b) => b.messages,
  },
  'GET messages/by-session': {
    op: 'getMessagesForSession',
    request: (t) => ({ query: { sessionId: t.fx.sessionId, page: 0, size: 100 } }),
    rows: (b) => b.messages,
  },
  // the seed form of messages/by-session: POST with the parameters in the body
  'POST messages/by-session': {
    op: 'getMessagesForSession',
    request: (t) => ({ body: { sessionId: t.fx.sessionId } }),
    rows: (b) => b.messages,
  },
  'GET messages/by-client': {
    op: 'getMessagesForClient',
    request: (t) => ({ query: { botId: t.fx.botId, clientId: t.fx.clientId, page: 0, size: 100 } }),
    rows: (b) => b.messages,
  },
  'GET messages/page-in-session': {
    op: 'getMessagePageInSession',
    request: (t) => ({ query: { sessionId: t.fx.sessionId, questionId: t.fx.questionId, size: 20 } }),
  },
  'GET messages/page-in-client': {
    op: 'getMessagePageInClient',
    request: (t) => ({
      query: { botId: t.fx.botId, clientId: t.fx.clientId, questionId: t.fx.questionId, size: 20 },
    }),
  },
  'POST state-routes/filter': {
    op: 'getStateRoutesDataByFilter',
    request: () => ({ query: { page: 0, size: 50 }, body: sessionWindow }),
    rows: (b) => b.routes,
  },
  // message labels and their groups
  'GET message/labels': { op: 'getMessageLabels', request: () => ({}), rows: (b) => b },
  'POST message/labels': {
    op: 'createMessageLabel',
    request: (t) => ({ body: { name: t.unique('label'), priority: 1, group: { name: t.unique('group') } } }),
  },
  'GET message/labels/{id}': {
    op: 'getMessageLabel',
    request: async (t) => ({ path: `message/labels/${(await t.createMessageLabel()).id}` }),
  },
  'PUT message/labels/{id}': {
    op: 'updateMessageLabel',
    async request(t) {
      const label = await t.createMessageLabel();
      return {
        path: `message/labels/${label.id}`,
        body: { name: t.unique('renamed'), groupId: label.groupId, priority: 2 },
      };
    },
  },
  'DELETE message/labels/{id}': {
    op: 'deleteMessageLabel',
    request: async (t) => ({ path: `message/labels/${(await t.createMessageLabel()).id}` }),
  },
  'PUT message/labels/change-priority': {
    op: 'updateMessageLabelsPriority',
    request: async (t) => ({ body: [{ id: (await t.createMessageLabel()).id, newPriority: 3 }] }),
  },
  'GET message/labels/groups': { op: 'getLabelGroups', request: () => ({}), rows: (b) => b },
  'PUT message/labels/groups': {
    op: 'updateMessageLabelGroups',
    async request(t) {
      const { groupId } = await t.createMessageLabel();
      return { body: [{ id: groupId, name: t.unique('group'), priority: 4 }] };
    },
  },
  'GET message/labels/groups/{id}': {
    op: 'getLabelGroup',
    request: async (t) => ({ path: `message/labels/groups/${(await t.createMessageLabel()).groupId}` }),
  },
  'PUT message/labels/groups/{id}': {
    op: 'updateMessageLabelGroup',
    async request(t) {
      const { groupId } = await t.createMessageLabel();
      return { path: `message/labels/groups/${groupId}`, body: { name: t.unique('group'), priority: 5 } };
    },
  },
  'DELETE message/labels/groups/{id}': {
    op: 'deleteMessageLabelGroup',
    request: async (t) => ({ path: `message/labels/groups/${(await t.createMessageLabel()).groupId}` }),
  },
  'PUT message/labels/groups/change-priority': {
    op: 'updateGroupsPriority',
    request: async (t) => ({ body: [{ id: (await t.createMessageLabel()).groupId, newPriority: 2 }] }),
  },
  'PUT message/labels/by-list': {
    op: 'updateMessageLabels',
    request: async (t) => ({
      body: [{ id: (await t.createMessageLabel()).id, name: t.unique('renamed'), priority: 6 }],
    }),
  },
  'POST message/labels/by-list': {
    op: 'createMessageLabels',
    request: (t) => ({
      body: [
        { name: t.unique('label'), priority: 1, group: { name: t.unique('group') } },
        { name: t.unique('label'), priority: 2, group: { name: t.unique('group') } },
      ],
    }),
  },
  'POST message/labels/logs': {
    op: 'addLabelToMessage',
    request: async (t) => ({
      query: { questionId: t.fx.questionId },
      body: { labelId: (await t.createMessageLabel()).id },
    }),
  },
  'DELETE message/labels/logs': {
    op: 'deleteLabelFromMessage',
    async request(t) {
      const query = { questionId: t.fx.questionId };
      const body = { labelId: (await t.createMessageLabel()).id };
      await t.setup('POST', 'message/labels/logs', { query, body });
      return { query, body };
    },
  },
  'POST message/labels/logs/bulk-labeling': {
    op: 'setLabelToMessages',
    request: async (t) => ({
      body: {
        comparisonType: 'CONTAINS',
        labels: [(await t.createMessageLabel()).id],
        objectIds: [t.fx.questionId],
      },
    }),
  },
  'POST message/labels/logs/set-by-list': {
    op: 'setMessageLabels',
    request: async (t) => ({
      query: { questionId: t.fx.questionId },
      body: [{ labelId: (await t.createMessageLabel()).id }],
    }),
  },
  // session labels
  'GET logs/labels/sessions': { op: 'getSessionLabels', request: () => ({}), rows: (b) => b },
  'POST logs/labels/sessions': {
    op: 'createSessionLabel',
    request: (t) => ({ body: { name: t.unique('session-label'), priority: 1 } }),
  },
  'GET logs/labels/sessions/{id}': {
    op: 'getSessionLabel',
    request: async (t) => ({ path: `logs/labels/sessions/${await t.createSessionLabel()}` }),
  },
  'PUT logs/labels/sessions/{id}': {
    op: 'updateSessionLabel',
    request: async (t) => ({
      path: `logs/labels/sessions/${await t.createSessionLabel()}`,
      body: { name: t.unique('renamed'), priority: 2 },
    }),
  },
  'DELETE logs/labels/sessions/{id}': {
    op: 'deleteSessionLabel',
    request: async (t) => ({ path: `logs/labels/sessions/${await t.createSessionLabel()}` }),
  },
  'PUT logs/labels/sessions/change-priority': {
    op: 'updateSessionsPriority',
    request: async (t) => ({ body: [{ id: await t.createSessionLabel(), newPriority: 3 }] }),
  },
  'PUT session-labels/by-list': {
    op: 'updateSessionLabels',
    request: async (t) => ({ body: [{ id: await t.createSessionLabel(), name: t.unique('renamed') }] }),
  },
  'POST session-labels/sessions': {
    op: 'addLabelToSession',
    request: async (t) => ({
      query: { sessionId: t.fx.sessionId },
      body: { labelId: await t.createSessionLabel() },
    }),
  },
  'DELETE session-labels/sessions': {
    op: 'deleteLabelFromSession',
    async request(t) {
      const query = { sessionId: t.fx.sessionId };
      const body = { labelId: await t.createSessionLabel() };
      await t.setup('POST', 'session-labels/sessions', { query, body });
      return { query, body };
    },
  },
  'POST session-labels/sessions/set-by-list': {
    op: 'setSessionLabels',
    request: async (t) => ({
      query: { sessionId: t.fx.sessionId },
      body: [{ labelId: await t.createSessionLabel() }],
    }),
  },
  'POST session-labels/sessions/bulk-labeling': {
    op: 'setLabelToSessions',
    request: async (t) => ({
      body: {
        comparisonType: 'CONTAINS',
        labels: [await t.createSessionLabel()],
        objectIds: [t.fx.sessionId],
      },
    }),
  },
  // comments
  'POST comments/{questionId}': {
    op: 'addCommentToMessage',
    request: (t) => ({
      path: `comments/${t.fx.questionId}`,
      body: { questionId: t.fx.questionId, comment: 'contract test comment' },
    }),
  },
  'DELETE comments/{questionId}': {
    op: 'deleteCommentFromMessage',
    async request(t) {
      const path = `comments/${t.fx.questionId}`;
      await t.setup('POST', path, { body: { questionId: t.fx.questionId, comment: 'to delete' } });
      return { path };
    },
  },
  // report tasks
  'GET reports': {
    op: 'getNotDeletedReportGenerationTasks',
    async request(t) {
      await t.createReportTask();
      return {};
    },
    rows: (b) => b.tasks,
  },
  'DELETE reports': { op: 'deleteCompletedReportGenerationTasks', request: () => ({}) },
  'DELETE reports/all': { op: 'deleteAllReportGenerationTasks', request: () => ({}) },
  'GET reports/tasks/{reportGenerationTaskId}': {
    op: 'getReportGenerationTask',
    request: async (t) => ({ path: `reports/tasks/${await t.createReportTask()}` }),
  },
  'DELETE reports/tasks/{reportGenerationTaskId}': {
    op: 'deleteReportGenerationTask',
    request: async (t) => ({ path: `reports/tasks/${await t.createReportTask()}` }),
  },
  'POST reports/sessions': {
    op: 'createSessionReport',
    report: true,
    request: () => ({ body: reportBody('CSV') }),
  },
  'POST reports/messages': {
    op: 'createMessageReport',
    report: true,
    request: () => ({ body: { filters: messageWindow.filters, settings: { fileType: 'XLSX' } } }),
  },
  'POST reports/clients': {
    op: 'createClientReport',
    report: true,
    request: () => ({ body: { settings: { fileType: 'CSV' } } }),
  },
  'POST reports/telephony': {
    op: 'createTelephonyReport',
    report: true,
    request: () => ({
      query: { startTime: new Date(FROM).toISOString(), endTime: new Date(TEST_NOW).toISOString() },
    }),
  },
  'POST reports/daily': {
    op: 'createDailyReport',
    report: true,
    request: () => ({ body: { date: day(TEST_NOW - DAY), settings: { fileType: 'CSV', delimiter: ';' } } }),
  },
  'POST reports/client-list': {
    op: 'createClientListReport',
    report: true,
    request: () => ({ body: reportBody('XLSX') }),
  },
  // v1 only: reactions to messages, times in epoch ms
  'POST reports/message-reaction': {
    op: 'createMessageReactionReport',
    report: true,
    request: (t) => ({
      body: {
        projectShortName: PROJECT,
        botId: t.fx.botId,
        messageTimeFrom: FROM,
        messageTimeTo: TEST_NOW,
        settings: { fileType: 'CSV' },
      },
    }),
  },
  // filters
  'GET filters': {
    op: 'getAvailableFilters',
    request: () => ({ query: { analyticsSection: 'SESSIONS' } }),
    rows: (b) => b,
  },
  'POST filter-options': {
    op: 'getFilterOptions',
    request: () => ({
      query: { filterKey: 'CHANNEL_TYPE', analyticsSection: 'SESSIONS', page: 0, size: 50 },
      body: sessionWindow,
    }),
    rows: (b) => b,
  },
  'POST interval-filter-options': {
    op: 'getIntervalFilterOptions',
    request: () => ({
      query: { filterKey: 'MESSAGE_COUNT', analyticsSection: 'SESSIONS' },
      body: sessionWindow,
    }),
  },
  'GET user-filter-sets/{filterSetId}': {
    op: 'getUserFilterSet',
    async request(t) {
      const created = await t.setup('POST', 'user-filter-sets/filterSetId', { body: sessionWindow });
      if (typeof created.body !== 'string')
        throw new Error(`setup: filterSetId is not a JSON string: ${created.text}`);
      return { path: `user-filter-sets/${encodeURIComponent(created.body)}` };
    },
  },
  'POST user-filter-sets/filterSetId': { op: 'createFilterSetId', request: () => ({ body: sessionWindow }) },
  // scenario experiments
  'GET scenario-exeperiments': { op: 'getScenarioExperiments', request: () => ({}), rows: (b) => b },
  'POST scenario-exeperiments': {
    op: 'createScenarioExperiment',
    request: (t) => ({
      body: {
        key: t.unique('experiment'),
        description: 'contract test',
        branches: [{ key: 'a', description: 'branch a' }, { key: 'b' }],
      },
    }),
  },
  'DELETE scenario-exeperiments': {
    op: 'deleteScenarioExperiment',
    request: async (t) => ({ query: { experimentKey: await t.createExperiment() } }),
  },
  'POST scenario-exeperiments/join': {
    op: 'joinScenarioExperiment',
    request: async (t) => ({
      query: { sessionId: t.fx.sessionId, experimentKey: await t.runningExperiment(), botId: t.fx.botId },
    }),
  },
  'POST scenario-exeperiments/stop': {
    op: 'stopScenarioExperiment',
    request: async (t) => ({ query: { experimentKey: await t.createExperiment() } }),
  },
  'GET scenario-exeperiments/count-sessions': {
    op: 'countScenarioExperimentSessions',
    request: () => ({}),
    rows: (b) => b,
  },
};

/** `METHOD path` with the path after its generation's prefix (the key of CASES). */
function keyOf(op: SpecOperation): string {
  const prefix = [LEGACY_PREFIX, V1_PREFIX, V1_ASYNC_PREFIX, SEED_PREFIX].find((p) => op.path.startsWith(p));
  if (!prefix) throw new Error(`an operation outside the known prefixes: ${op.method} ${op.path}`);
  return `${op.method} ${op.path.slice(prefix.length)}`;
}

/** The vendor's operationId an operation of ours stands for: v1 and seed ids carry a suffix. */
const vendorIdOf = (op: SpecOperation) => op.operationId?.replace(/(V1|Seed)$/, '');

let running: RunningEmulator;
let fx: Fixtures;
let counter = 0;

function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** One raw HTTP call; `scope` async means the v1 async prefix, seed the seed documents' `/reporter/`. */
async function rawCall(
  gen: Generation,
  method: string,
  path: string,
  request: Omit<Request, 'path'> = {},
  scope: 'reporter' | 'async' | 'seed' = 'reporter',
): Promise<Answer> {
  const headers: Record<string, string> = {};
  let url: string;
  let query = request.query ?? {};
  if (gen === 'legacy') {
    url = `${running.url}/api/reporter/p/${defaultLegacyToken(PROJECT)}/${path}`;
  } else {
    const prefix = { reporter: '/api/v1/reporter', async: '/api/v1/async/reporter', seed: '/reporter' }[
      scope
    ];
    url = `${running.url}${prefix}/${path}`;
    headers['authorization'] = `Bearer ${DEFAULT_V1_TOKEN}`;
    query = { ...query, projectShortName: PROJECT };
  }
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url + queryString(query), {
    method,
    headers,
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  return parseAnswer(response);
}

async function parseAnswer(response: Response): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

async function events(query: Query, token: string | null = DEFAULT_V1_TOKEN): Promise<Answer> {
  const response = await fetch(`${running.url}/api/v1/async/events${queryString(query)}`, {
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });
  return parseAnswer(response);
}

function describeAnswer(a: Answer): string {
  return `${a.status} ${a.text.length > 400 ? `${a.text.slice(0, 400)}...` : a.text}`;
}

/**
 * Long-polls the events of one request (startTime = the last responseTime seen) until `until` holds or a
 * deadline passes; validates every answer against AsyncResponsesDto.
 */
async function reportEvents(requestId: string, until: (events: any[]) => boolean): Promise<any[]> {
  const seen: any[] = [];
  let startTime: number | undefined;
  const deadline = Date.now() + 8_000;
  while (Date.now() < deadline) {
    const answer = await events({ requestId, timeout: 2, startTime });
    if (answer.status !== 200) throw new Error(`GET async/events: ${describeAnswer(answer)}`);
    const errors = spec.validateNamed(answer.body, 'AsyncResponsesDto');
    if (errors.length > 0) throw new Error(`GET async/events is off-contract:\n${schemaErrors(errors)}`);
    for (const event of answer.body.response as any[]) {
      if (event.requestId !== requestId) continue;
      seen.push(event);
      const t = Date.parse(event.responseTime);
      if (!Number.isNaN(t)) startTime = Math.max(startTime ?? t, t);
    }
    if (until(seen)) break;
  }
  return seen;
}

const TERMINAL = ['COMPLETED', 'FAILED', 'STOPPED', 'DELETED'];

/** Polls GET reports/tasks/{taskId} until a final status or a deadline; every answer must be 200. */
async function pollTask(t: Tools, taskId: string): Promise<any[]> {
  const states: any[] = [];
  const deadline = Date.now() + 8_000;
  while (Date.now() < deadline) {
    const answer = await t.send('GET', `reports/tasks/${encodeURIComponent(taskId)}`);
    if (answer.status !== 200) throw new Error(`GET reports/tasks/${taskId}: ${describeAnswer(answer)}`);
    states.push(answer.body);
    if (TERMINAL.includes(answer.body?.status)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return states;
}

/** A ReportGenerationTaskDto; once COMPLETED it also carries fileUrl and fileName (docs/emulator.md). */
function taskErrors(task: any, path: string): string[] {
  const errors = spec.validate(task, spec.schema('ReportGenerationTaskDto'), path);
  if (task?.status === 'COMPLETED') {
    for (const field of ['fileUrl', 'fileName'])
      if (typeof task[field] !== 'string') errors.push(`${path}.${field}: missing on a COMPLETED task`);
  }
  return errors;
}

/** Report events: a failed one carries an error, the others a ReportGenerationTaskDto payload. */
function reportEventErrors(list: any[]): string[] {
  return list.flatMap((event, n) => {
    if (event.isOk === false)
      return event.error === undefined ? [`events[${n}]: isOk false without error`] : [];
    if (event.payload === undefined) return [`events[${n}].payload: missing (the ReportGenerationTaskDto)`];
    return taskErrors(event.payload, `events[${n}].payload`);
  });
}

/**
 * A v1 report creation answer: AsyncTaskDto (or, for client-list, no body and Z-Request-* headers); then its
 * async events until the task is final: valid AsyncResponsesDto answers, ReportGenerationTaskDto payloads.
 */
async function expectAsyncReport(where: string, answer: Answer, op: SpecOperation): Promise<void> {
  expect(answer.status, `${where}: ${describeAnswer(answer)}`).toBe(200);
  let requestId: string;
  const schema = spec.responseSchema(op.operation);
  if (!schema) {
    expect(answer.text, `${where}: v1 client-list answers no body`).toBe('');
    expect(answer.headers.get('z-request-time'), `${where}: header Z-Request-time`).toBeTruthy();
    requestId = answer.headers.get('z-request-id') ?? '';
    expect(requestId, `${where}: header Z-Request-id`).not.toBe('');
  } else {
    const errors = spec.validate(answer.body, schema);
    expect(errors, `${where} is off-contract (AsyncTaskDto):\n${schemaErrors(errors)}`).toEqual([]);
    requestId = answer.body.requestId;
  }
  const list = await reportEvents(requestId, (l) =>
    l.some((e) => TERMINAL.includes(e.payload?.status) || e.isOk === false),
  );
  // no fault is scripted: the task must complete, so the COMPLETED form (fileUrl, fileName) is checked too
  const final = list.find((e) => TERMINAL.includes(e.payload?.status) || e.isOk === false);
  expect(
    final?.payload?.status,
    `${where}: requestId ${requestId} did not complete; events: ${JSON.stringify(list).slice(0, 600)}`,
  ).toBe('COMPLETED');
  const eventErrors = reportEventErrors(list);
  expect(eventErrors, `${where}: async events off-contract:\n${schemaErrors(eventErrors)}`).toEqual([]);
}

function tools(gen: Generation): Tools {
  const send: Tools['send'] = (method, path, request) => rawCall(gen, method, path, request);
  const setup: Tools['setup'] = async (method, path, request) => {
    const answer = await send(method, path, request);
    if (answer.status !== 200) throw new Error(`setup ${method} ${path} failed: ${describeAnswer(answer)}`);
    return answer;
  };
  const unique = (prefix: string) => `contract-${gen}-${prefix}-${++counter}`;
  const createExperiment = async (status?: string) => {
    const key = unique('experiment');
    await setup('POST', 'scenario-exeperiments', {
      body: {
        key,
        description: 'setup',
        branches: [{ key: 'a' }, { key: 'b' }],
        ...(status ? { status } : {}),
      },
    });
    return key;
  };
  return {
    gen,
    fx,
    send,
    setup,
    unique,
    async createMessageLabel() {
      const answer = await setup('POST', 'message/labels', {
        body: { name: unique('label'), priority: 1, group: { name: unique('group') } },
      });
      const id = answer.body?.id;
      const groupId = answer.body?.group?.id;
      if (typeof id !== 'number' || typeof groupId !== 'number')
        throw new Error(`setup: created message label lacks id or group.id: ${answer.text}`);
      return { id, groupId };
    },
    async createSessionLabel() {
      const answer = await setup('POST', 'logs/labels/sessions', {
        body: { name: unique('session-label'), priority: 1 },
      });
      if (typeof answer.body?.id !== 'number')
        throw new Error(`setup: created session label lacks id: ${answer.text}`);
      return answer.body.id as number;
    },
    async runningExperiment() {
      const list = await setup('GET', 'scenario-exeperiments');
      const found = Array.isArray(list.body)
        ? list.body.find((e: any) => e?.status === 'RUNNING')
        : undefined;
      return typeof found?.key === 'string' ? found.key : createExperiment('RUNNING');
    },
    createExperiment: () => createExperiment(),
    async createReportTask() {
      if (gen === 'legacy') {
        const answer = await setup('POST', 'reports/sessions', { body: reportBody('CSV') });
        if (typeof answer.body?.taskId !== 'string') throw new Error(`setup: no taskId in ${answer.text}`);
        return answer.body.taskId as string;
      }
      const created = await rawCall('v1', 'POST', 'reports/sessions', { body: reportBody('CSV') }, 'async');
      if (created.status !== 200 || typeof created.body?.requestId !== 'string')
        throw new Error(`setup: async report creation failed: ${describeAnswer(created)}`);
      const list = await reportEvents(created.body.requestId, (l) => l.some((e) => e.payload?.taskId));
      const taskId = list.find((e) => e.payload?.taskId)?.payload.taskId;
      if (typeof taskId !== 'string')
        throw new Error(`setup: no event with payload.taskId for ${created.body.requestId}`);
      return taskId;
    },
  };
}

function schemaErrors(errors: string[]): string {
  return errors.length > 20
    ? `${errors.slice(0, 20).join('\n')}\n... and ${errors.length - 20} more`
    : errors.join('\n');
}

beforeAll(async () => {
  running = await startEmulator({ sessions: 400, days: 2, now: TEST_NOW });
  // a message with a question in a session of several messages: ids for by-session, by-client, labels...
  const answer = await rawCall('v1', 'POST', 'messages/filter', {
    query: { size: 200 },
    body: messageWindow,
  });
  if (answer.status !== 200) throw new Error(`fixtures: messages/filter ${describeAnswer(answer)}`);
  const messages = answer.body.messages as any[];
  const perSession = new Map<string, number>();
  for (const m of messages) perSession.set(m.sessionId, (perSession.get(m.sessionId) ?? 0) + 1);
  const m =
    messages.find((x) => typeof x.question === 'string' && (perSession.get(x.sessionId) ?? 0) > 1) ??
    messages[0];
  fx = { sessionId: m.sessionId, botId: m.botId, clientId: m.client.id, questionId: m.questionId };
});
afterAll(() => running?.close());

describe('the contract table', () => {
  it('has a case for every path + method of the spec, and none it lacks', () => {
    // the events long poll has tests of its own below
    const tabled = ALL_OPS.filter((o) => o.path !== EVENTS_PATH);
    const inSpec = new Set(tabled.map(keyOf));
    expect(GENERATION_OPS.legacy.length).toBeGreaterThan(60);
    expect(GENERATION_OPS.v1.length).toBeGreaterThan(60);
    expect(SEED_OPS.length).toBeGreaterThan(0);
    expect(tabled.length).toBe(GENERATION_OPS.legacy.length + GENERATION_OPS.v1.length + SEED_OPS.length);
    expect
      .soft(
        [...inSpec].filter((k) => !(k in CASES)),
        'operations of the spec without a case',
      )
      .toEqual([]);
    expect(
      Object.keys(CASES).filter((k) => !inSpec.has(k)),
      'cases for operations the spec does not have',
    ).toEqual([]);
  });

  it('names the operationId of the spec for each case (v1 and seed ids with their suffix)', () => {
    const wrong = [...GENERATION_OPS.legacy, ...GENERATION_OPS.v1, ...SEED_OPS]
      .filter((o) => CASES[keyOf(o)] && CASES[keyOf(o)]!.op !== vendorIdOf(o))
      .map((o) => `${o.path}: table says ${CASES[keyOf(o)]!.op}, spec says ${o.operationId}`);
    expect(wrong).toEqual([]);
  });

  it('creates v1 reports only under the async prefix, as the spec says', () => {
    const reports = GENERATION_OPS.v1.filter((o) => CASES[keyOf(o)]?.report);
    expect(reports.length).toBeGreaterThan(5);
    expect(reports.filter((o) => !o.path.startsWith(V1_ASYNC_PREFIX)).map((o) => o.path)).toEqual([]);
  });
});

/** Calls one operation of the spec as its table case says and checks the answer against the spec. */
async function checkOperation(gen: Generation | 'seed', op: SpecOperation): Promise<void> {
  const key = keyOf(op);
  const c = CASES[key];
  if (!c) throw new Error(`no case in the contract table for ${key} (${op.operationId})`);
  const t = tools(gen === 'legacy' ? 'legacy' : 'v1');
  const request = await c.request(t);
  const path = request.path ?? key.slice(key.indexOf(' ') + 1);
  expect(path, 'a path parameter was left unfilled').not.toMatch(/[{}]/);
  const where = `${op.method} ${path} (${op.operationId}, ${gen})`;
  const scope = op.path.startsWith(SEED_PREFIX)
    ? 'seed'
    : op.path.startsWith(V1_ASYNC_PREFIX)
      ? 'async'
      : 'reporter';
  const answer = await rawCall(gen === 'legacy' ? 'legacy' : 'v1', op.method, path, request, scope);

  if (gen !== 'legacy' && c.report) {
    await expectAsyncReport(where, answer, op);
    return;
  }

  expect(answer.status, `${where}: ${describeAnswer(answer)}`).toBe(200);
  const schema = spec.responseSchema(op.operation);
  if (!schema) {
    expect(answer.text, `${where}: the spec declares no response body`).toBe('');
    return;
  }
  expect(answer.body, `${where}: the answer is not JSON: ${answer.text.slice(0, 200)}`).not.toBeUndefined();
  const errors = spec.validate(answer.body, schema);
  expect(errors, `${where} is off-contract:\n${schemaErrors(errors)}`).toEqual([]);
  if (c.rows) {
    const rows = c.rows(answer.body);
    expect(Array.isArray(rows) && rows.length > 0, `${where}: no rows to check the schema on`).toBe(true);
  }
  if (c.report) {
    // the legacy task is polled until it is final: every state it answers must be a ReportGenerationTaskDto
    const states = await pollTask(t, answer.body.taskId);
    const last = states[states.length - 1];
    expect(last?.status, `${where}: task ${answer.body.taskId} did not complete`).toBe('COMPLETED');
    const polled = states.flatMap((task, n) => taskErrors(task, `polls[${n}]`));
    expect(polled, `${where}: polled task off-contract:\n${schemaErrors(polled)}`).toEqual([]);
  }
}

describe.each(['legacy', 'v1'] as const)('%s generation', (gen) => {
  it.each(GENERATION_OPS[gen].map((o) => [keyOf(o), o] as const))('%s', (_key, op) =>
    checkOperation(gen, op),
  );
});

describe("the seed documents' short forms", () => {
  it.each(SEED_OPS.map((o) => [keyOf(o), o] as const))('%s', (_key, op) => checkOperation('seed', op));
});

describe('async events, errors and a self-check', () => {
  it('GET /api/v1/async/events answers AsyncResponsesDto (empty on timeout)', async () => {
    const answer = await events({ timeout: 1, startTime: TEST_NOW + 365 * DAY });
    expect(answer.status, describeAnswer(answer)).toBe(200);
    expect(spec.validateNamed(answer.body, 'AsyncResponsesDto')).toEqual([]);
    expect(answer.body.response).toEqual([]);
  });

  it('GET /api/v1/async/events without a token answers 401 with an ErrorDto', async () => {
    const answer = await events({ timeout: 0 }, null);
    expect(answer.status, describeAnswer(answer)).toBe(401);
    expect(spec.validateNamed(answer.body, 'ErrorDto')).toEqual([]);
  });

  it.each(['legacy', 'v1'] as const)('%s: a 400 answers an ErrorDto', async (gen) => {
    const answer = await rawCall(gen, 'GET', 'messages/by-session', { query: { page: 0 } });
    expect(answer.status, describeAnswer(answer)).toBe(400);
    expect(spec.validateNamed(answer.body, 'ErrorDto')).toEqual([]);
  });

  it.each(['legacy', 'v1'] as const)('%s: a 401 answers an ErrorDto', async (gen) => {
    const url =
      gen === 'legacy'
        ? `${running.url}/api/reporter/p/not-a-token/projects/sessions/count`
        : `${running.url}/api/v1/reporter/projects/sessions/count`;
    const answer = await parseAnswer(await fetch(url));
    expect(answer.status, describeAnswer(answer)).toBe(401);
    expect(spec.validateNamed(answer.body, 'ErrorDto')).toEqual([]);
  });

  it('the schema check catches a record the emulator breaks on purpose', async () => {
    running.emulator.faults.script({ type: 'invalidRecord', path: 'sessions/filter', recordIndex: 3 });
    running.emulator.faults.script({
      type: 'invalidRecord',
      path: 'messages/filter',
      variant: 'missingField',
    });
    const sessions = await rawCall('legacy', 'POST', 'sessions/filter', { query: { size: 5 }, body: {} });
    expect(spec.validateNamed(sessions.body, 'SessionsData')).toEqual([
      'sessions[3].startTime: expected string, got integer 12345',
    ]);
    const messages = await rawCall('v1', 'POST', 'messages/filter', { query: { size: 5 }, body: {} });
    expect(spec.validateNamed(messages.body, 'MessageData')).toEqual([
      'messages[0].questionId: missing required property',
    ]);
  });
});
