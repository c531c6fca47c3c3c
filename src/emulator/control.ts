// The emulator's control endpoints under /__emulator/ (no auth, loopback only): health, ground truth,
// the clock, faults, the Chat API's truth and webhooks, what Pushgate received, the knowledge base's truth
// (`kb/truth?at=`), the remote behaviour (`remote`: latency, rate limit; remote.ts), how report files are
// written (`report-shape`: header names, CSV or XLSX only, column order; reports/report-shape.ts). Tests in
// other processes and the demo drive the emulator through them.
import { badParameter } from './api-error.js';
import { chatChannelTruth } from './chatapi/chat-truth.js';
import { FAULT_TYPES, type FaultRule, type FaultType } from './faults.js';
import { parseDateTime } from './filters.js';
import { kbTruth } from './kb/kb-truth.js';
import { queryDateTime, queryString, requireObject } from './params.js';
import { listRemoteRoutes } from './remote.js';
import { readReportShape } from './reports/report-shape.js';
import type { Route } from './route.js';
import { groundTruth } from './truth.js';

export function controlRoutes(): Route[] {
  return [
    ...listWorldRoutes(),
    ...listChatApiControlRoutes(),
    ...listPushgateControlRoutes(),
    ...listKbControlRoutes(),
    ...listClockRoutes(),
    ...listFaultRoutes(),
    ...listRemoteRoutes(),
    ...listReportShapeRoutes(),
  ];
}

/** GET and POST /__emulator/report-shape: how report files are written, read and changed (for tasks created after). */
function listReportShapeRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'report-shape',
      op: 'reportShape',
      handler: (ctx) => ({ body: ctx.emulator.reportShape }),
    },
    {
      method: 'POST',
      path: 'report-shape',
      op: 'setReportShape',
      handler(ctx) {
        const changes = readReportShape(ctx.body ?? {});
        ctx.emulator.reportShape = { ...ctx.emulator.reportShape, ...changes };
        return { body: ctx.emulator.reportShape };
      },
    },
  ];
}

// health and the Reporter world's ground truth
function listWorldRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'health',
      op: 'health',
      handler(ctx) {
        const projects = [...ctx.emulator.projects.values()].map((p) => ({
          projectShortName: p.name,
          sessions: p.skeleton.sessionCount,
          messages: p.skeleton.messageCount,
          botIds: p.botIds,
        }));
        const chatApiChannels = [...ctx.emulator.chatApi.channels.values()].map((c) => ({
          token: c.token,
          project: c.project.name,
          webhookUrl: c.webhookUrl ?? null,
          prompterWebhookUrl: c.prompterWebhookUrl ?? null,
        }));
        return {
          body: {
            ok: true,
            now: new Date(ctx.now).toISOString(),
            live: ctx.emulator.clock.live,
            projects,
            chatApiChannels,
          },
        };
      },
    },
    {
      method: 'GET',
      path: 'truth',
      op: 'truth',
      handler(ctx) {
        const name = queryString(ctx.query, 'project') ?? ctx.emulator.options.projects[0]!;
        const project = ctx.emulator.project(name);
        const from = queryDateTime(ctx.query, 'from');
        const to = queryDateTime(ctx.query, 'to');
        const ids = ctx.query.get('ids') !== 'false';
        return {
          body: groundTruth(project, {
            now: ctx.now,
            ids,
            ...(from === undefined ? {} : { from }),
            ...(to === undefined ? {} : { to }),
          }),
        };
      },
    },
  ];
}

// the Chat API's truth and its channels' webhooks
function listChatApiControlRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'chatapi/truth',
      op: 'chatApiTruth',
      handler(ctx) {
        const token = queryString(ctx.query, 'token') ?? ctx.emulator.chatApi.channels.keys().next().value!;
        const from = queryDateTime(ctx.query, 'from');
        const to = queryDateTime(ctx.query, 'to');
        return {
          body: chatChannelTruth(ctx.emulator, token, {
            now: ctx.now,
            ...(from === undefined ? {} : { from }),
            ...(to === undefined ? {} : { to }),
          }),
        };
      },
    },
    {
      method: 'POST',
      path: 'chatapi/webhook',
      op: 'setChatApiWebhook',
      handler(ctx) {
        const body = requireObject(ctx.body ?? {});
        if (typeof body['token'] !== 'string') throw badParameter('token', 'expected a channel token');
        const channel = ctx.emulator.chatApi.channel(body['token']);
        // `url`: the Chat API's asynchronous answers; `prompterUrl`: the Prompter's answer options
        for (const [name, key] of [
          ['url', 'webhookUrl'],
          ['prompterUrl', 'prompterWebhookUrl'],
        ] as const) {
          const url = body[name];
          if (url === undefined) continue;
          if (url !== null && (typeof url !== 'string' || !/^https?:\/\//.test(url)))
            throw badParameter(name, 'expected an http(s) URL, or null for none');
          if (url === null) delete channel[key];
          else channel[key] = url;
        }
        return {
          body: {
            token: channel.token,
            webhookUrl: channel.webhookUrl ?? null,
            prompterWebhookUrl: channel.prompterWebhookUrl ?? null,
          },
        };
      },
    },
  ];
}

// what Pushgate received, and its pushbacks
function listPushgateControlRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'pushgate/received',
      op: 'pushgateReceived',
      handler(ctx) {
        const pushbackId = queryString(ctx.query, 'pushbackId');
        return { body: { received: ctx.emulator.pushgate.receipts(pushbackId) } };
      },
    },
    {
      method: 'POST',
      path: 'pushgate/pushbacks',
      op: 'setPushback',
      handler(ctx) {
        const body = requireObject(ctx.body ?? {});
        const id = body['pushbackId'];
        if (typeof id !== 'string' || !/^[A-Za-z0-9_-]+$/.test(id))
          throw badParameter('pushbackId', 'expected letters, digits, - and _');
        if (body['delete'] === true) {
          ctx.emulator.pushgate.delete(id);
          return { body: { pushbackId: id, deleted: true } };
        }
        const project = body['project'];
        if (project !== undefined && typeof project !== 'string')
          throw badParameter('project', 'expected a project name');
        return { body: ctx.emulator.pushgate.create(id, project) };
      },
    },
  ];
}

// the knowledge base's truth at an instant
function listKbControlRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'kb/truth',
      op: 'kbTruth',
      handler(ctx) {
        const at = queryDateTime(ctx.query, 'at');
        return { body: kbTruth(ctx.emulator, at ?? ctx.now) };
      },
    },
  ];
}

// the emulator's clock: read, set, advance, speed
function listClockRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'clock',
      op: 'clock',
      handler(ctx) {
        return { body: { now: new Date(ctx.now).toISOString(), live: ctx.emulator.clock.live } };
      },
    },
    {
      method: 'POST',
      path: 'clock',
      op: 'setClock',
      handler(ctx) {
        const body = requireObject(ctx.body ?? {});
        const clock = ctx.emulator.clock;
        if (body['set'] !== undefined) clock.set(parseDateTime(body['set'], 'set'));
        if (body['advanceMs'] !== undefined) {
          if (typeof body['advanceMs'] !== 'number' || body['advanceMs'] < 0)
            throw badParameter('advanceMs', 'expected a non-negative number');
          clock.advance(body['advanceMs']);
        }
        if (body['speed'] !== undefined) {
          if (typeof body['speed'] !== 'number' || body['speed'] < 0)
            throw badParameter('speed', 'expected a non-negative number');
          clock.setSpeed(body['speed']);
        }
        const now = ctx.emulator.now();
        return { body: { now: new Date(now).toISOString(), live: clock.live } };
      },
    },
  ];
}

// scripted faults and fault rates
function listFaultRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: 'faults',
      op: 'faults',
      handler(ctx) {
        return { body: { rules: ctx.emulator.faults.list(), firedByRate: ctx.emulator.faults.firedByRate } };
      },
    },
    {
      method: 'POST',
      path: 'faults',
      op: 'scriptFaults',
      handler(ctx) {
        const body = requireObject(ctx.body ?? {});
        const rules = Array.isArray(body['rules']) ? (body['rules'] as FaultRule[]) : [];
        rules.forEach((rule, n) => {
          if (!FAULT_TYPES.includes(rule?.type))
            throw badParameter(`rules[${n}].type`, `expected one of ${FAULT_TYPES.join(', ')}`);
        });
        const added = rules.map((rule) => ctx.emulator.faults.script(rule));
        if (body['rates'] !== undefined) {
          const rates = requireObject(body['rates'], 'rates') as Partial<Record<FaultType, number>>;
          for (const key of Object.keys(rates)) {
            if (!FAULT_TYPES.includes(key as FaultType))
              throw badParameter(`rates.${key}`, 'unknown fault type');
          }
          ctx.emulator.faults.setRates(rates);
        }
        return { body: { rules: added } };
      },
    },
    {
      method: 'DELETE',
      path: 'faults',
      op: 'clearFaults',
      handler(ctx) {
        ctx.emulator.faults.clear();
        return { body: { rules: [] } };
      },
    },
  ];
}
