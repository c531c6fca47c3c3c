// Turns a create-report request (body, query, headers) into its source: the project, the rows as of the
// request's clock, and the settings. Invariant: every parameter is validated before a task exists, and a
// bad one is a 400 naming the field (filters[0].key, settings.fileType, date, messageTimeFrom, ...).
import { ApiError, badParameter } from '../api-error.js';
import { type CompiledFilters, compileFilterList } from '../filters.js';
import { parseDate, queryDateTime, queryList, requireObject } from '../params.js';
import type { ProjectData } from '../project-data.js';
import { selectClients, selectMessages, selectSessions } from '../query.js';
import type { RouteContext } from '../route.js';
import { DAY_MS } from '../skeleton.js';
import { clientListTable, clientsTable } from './client-table.js';
import { messagesTable } from './message-table.js';
import { type ReactionQuery, reactionsTable, selectReactions } from './reaction-table.js';
import { parseReportSettings } from './report-settings.js';
import { shapeSettings, shapeTable } from './report-shape.js';
import type { ReportTable } from './report-table.js';
import type { ReportKind, ReportSettings } from './report-types.js';
import { sessionsTable } from './session-table.js';
import { selectCalls, telephonyTable } from './telephony-table.js';

export interface ReportSource {
  project: ProjectData;
  table: ReportTable;
  settings: ReportSettings;
  /** A CSV file starts with a UTF-8 byte order mark (the emulator's report shape). */
  csvBom?: boolean;
}

/** The body as an object: absent is `{}` unless required. */
function bodyOf(ctx: RouteContext, required: boolean): Record<string, unknown> {
  if (ctx.body === undefined || ctx.body === null) {
    if (required) throw badParameter('body', 'a JSON object is required');
    return {};
  }
  return requireObject(ctx.body, 'body');
}

function optionalText(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '')
    throw badParameter(name, `expected a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}

function optionalEpoch(body: Record<string, unknown>, name: string): number | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw badParameter(
      name,
      `expected epoch milliseconds (a non-negative integer), got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

function orderedBounds(from: number | undefined, to: number | undefined, fromName: string): void {
  if (from !== undefined && to !== undefined && from > to)
    throw badParameter(fromName, 'is after the end of the range');
}

function durationUnit(ctx: RouteContext): 'ms' | 's' {
  return ctx.emulator.options.durationUnit;
}

function filtered(
  ctx: RouteContext,
  kind: 'sessions' | 'messages' | 'clients' | 'client-list',
): ReportSource {
  const body = bodyOf(ctx, false);
  const filters = compileFilterList(body['filters'], 'filters');
  const settings = parseReportSettings(body['settings']);
  const p = ctx.project;
  switch (kind) {
    case 'sessions':
      return {
        project: p,
        settings,
        table: sessionsTable(p, selectSessions(p, filters, ctx.now), ctx.now, durationUnit(ctx)),
      };
    case 'messages':
      return { project: p, settings, table: messagesTable(p, selectMessages(p, filters, ctx.now), ctx.now) };
    case 'clients':
      return { project: p, settings, table: clientsTable(p, selectClients(p, filters, ctx.now), ctx.now) };
    default:
      return { project: p, settings, table: clientListTable(p, selectClients(p, filters, ctx.now), ctx.now) };
  }
}

function telephony(ctx: RouteContext): ReportSource {
  const from = queryDateTime(ctx.query, 'startTime');
  const to = queryDateTime(ctx.query, 'endTime');
  orderedBounds(from, to, 'startTime');
  const botIds = queryList(ctx.query, 'botIds');
  // the vendor's operation has no body; settings are accepted when one is sent anyway
  const settings = parseReportSettings(bodyOf(ctx, false)['settings']);
  const p = ctx.project;
  const calls = selectCalls(
    p,
    { botIds, ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) },
    ctx.now,
  );
  return { project: p, settings, table: telephonyTable(p, calls, ctx.now, durationUnit(ctx)) };
}

function daily(ctx: RouteContext): ReportSource {
  const body = bodyOf(ctx, true);
  if (body['date'] === undefined || body['date'] === null)
    throw badParameter('date', 'required (a date like 2024-05-01)');
  const day = parseDate(body['date'], 'date');
  const settings = parseReportSettings(body['settings']);
  const filters: CompiledFilters = {
    session: [],
    message: [],
    messageTime: [day, day + DAY_MS - 1],
    key: `daily|${day}`,
  };
  const p = ctx.project;
  return {
    project: p,
    settings,
    table: messagesTable(p, selectMessages(p, filters, ctx.now), ctx.now, 'Daily'),
  };
}

/** The project a message-reaction body names, checked against the token. */
function namedProject(ctx: RouteContext, name: string): ProjectData {
  if (!ctx.tokenProjects.includes(name)) {
    if (!ctx.emulator.projects.has(name)) throw badParameter('projectShortName', `unknown project ${name}`);
    throw new ApiError(403, 'reporter.forbidden.project', `The token has no access to project ${name}`, {
      projectShortName: name,
    });
  }
  return ctx.emulator.project(name);
}

function messageReaction(ctx: RouteContext): ReportSource {
  const body = bodyOf(ctx, true);
  const projectName = optionalText(body, 'projectShortName');
  if (projectName === undefined) throw badParameter('projectShortName', 'required');
  const botId = optionalText(body, 'botId');
  if (botId === undefined) throw badParameter('botId', 'required');
  const query: ReactionQuery = { botId };
  for (const name of ['messageId', 'clientId', 'sessionId'] as const) {
    const value = optionalText(body, name);
    if (value !== undefined) query[name] = value;
  }
  for (const name of ['messageTimeFrom', 'messageTimeTo', 'reactionTimeFrom', 'reactionTimeTo'] as const) {
    const value = optionalEpoch(body, name);
    if (value !== undefined) query[name] = value;
  }
  orderedBounds(query.messageTimeFrom, query.messageTimeTo, 'messageTimeFrom');
  orderedBounds(query.reactionTimeFrom, query.reactionTimeTo, 'reactionTimeFrom');
  const settings = parseReportSettings(body['settings']);
  const p = namedProject(ctx, projectName);
  return { project: p, settings, table: reactionsTable(p, selectReactions(p, query, ctx.now)) };
}

/**
 * Validates a create request of `kind` and snapshots its rows, written as the emulator's report shape says
 * (report-shape.ts: header names, CSV refused or ignored, column order, extra columns).
 */
export function reportSource(kind: ReportKind, ctx: RouteContext): ReportSource {
  const source = plainSource(kind, ctx);
  const shape = ctx.emulator.reportShape;
  return {
    project: source.project,
    settings: shapeSettings(source.settings, shape),
    table: shapeTable(source.table, shape, ctx.emulator.options.seed),
    csvBom: shape.csvBom,
  };
}

/** The source as the API's field names and the asked settings have it. */
function plainSource(kind: ReportKind, ctx: RouteContext): ReportSource {
  switch (kind) {
    case 'telephony':
      return telephony(ctx);
    case 'daily':
      return daily(ctx);
    case 'message-reaction':
      return messageReaction(ctx);
    default:
      return filtered(ctx, kind);
  }
}
