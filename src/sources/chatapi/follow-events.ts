// Follows a Chat API channel's events into chatapi_events, exactly once: each call of GET …/events passes an
// explicit `ts` (never the server's shared cursor, which would take events from the customer's own app), each
// answer is stored with the channel's new cursor in one transaction, and an event read twice (the calls
// overlap by a millisecond after a full answer, or after a restart) is stored once (its key is its hash).
// One pass stops once caught up (an answer under 250 events); `follow` keeps polling until the signal.
import type { Logger } from '../../log.js';
import { type ChatApiClient, EVENTS_PER_ANSWER } from '../../platform/chatapi/chatapi-client.js';
import { parseChatApiTime } from '../../platform/chatapi/parse-chatapi-time.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { hashOfRecord } from './canonical-json.js';
import {
  type ChatApiEventRow,
  type ChatApiRejectRow,
  EVENTS_CURSOR_KEY,
  SELECT_EVENTS_CURSOR,
  stateProjectOf,
  storeEventsPage,
} from './chatapi-events-sql.js';

export interface FollowEventsOptions {
  warehouse: Warehouse;
  client: ChatApiClient;
  /** REPORTER_CHATAPI_TIMEZONE: the zone of timestamps without one. */
  timeZone: string;
  runId: string;
  /** Where a channel never read before starts (epoch ms): its events after this time. */
  startAt: number;
  /** Poll on after catching up, until `signal` aborts (the command's --follow). */
  follow?: boolean;
  signal?: AbortSignal;
  log?: Logger;
  now?: () => number;
  /** Called after each stored answer (progress lines). */
  onPage?: (page: { read: number; stored: number; cursor: number }) => void;
}

export interface FollowEventsResult {
  channel: string;
  /** Events in the answers, duplicates included. */
  read: number;
  /** Events stored for the first time. */
  stored: number;
  rejects: number;
  /** The channel's cursor after the last stored answer (epoch ms). */
  cursor: number;
  answers: number;
}

export async function followEvents(options: FollowEventsOptions): Promise<FollowEventsResult> {
  const { warehouse, client, log } = options;
  const now = options.now ?? Date.now;
  const project = stateProjectOf(client.channel);
  const stored = await warehouse.query(SELECT_EVENTS_CURSOR, { project, key: EVENTS_CURSOR_KEY });
  const saved = stored[0]?.['value'];
  let cursor = typeof saved === 'string' && /^\d+$/.test(saved) ? Number(saved) : options.startAt;
  // after a restart the events at the cursor's millisecond may be only partly stored: overlap once
  let overlap = saved !== undefined;
  const result: FollowEventsResult = {
    channel: client.channel,
    read: 0,
    stored: 0,
    rejects: 0,
    cursor,
    answers: 0,
  };
  for (;;) {
    if (options.signal?.aborted) break;
    const ts = overlap ? cursor - 1 : cursor;
    const answer = await client.events(ts);
    const rows: ChatApiEventRow[] = [];
    const rejects: ChatApiRejectRow[] = answer.rejects.map((r) => ({
      record_id: null,
      raw_json: JSON.stringify(r.raw) ?? 'null',
      error: `not a Chat API event: ${r.reason}`,
    }));
    let newest = cursor;
    for (const event of answer.events) {
      const time = parseChatApiTime(event.timestamp, options.timeZone);
      if (time === undefined) {
        rejects.push({
          record_id: event.questionId ?? null,
          raw_json: JSON.stringify(event),
          error: `timestamp ${JSON.stringify(event.timestamp)} is not a date-time (REPORTER_CHATAPI_TIMEZONE ${options.timeZone})`,
        });
        continue;
      }
      newest = Math.max(newest, time);
      rows.push({
        event_key: hashOfRecord(event),
        type: event.type,
        client_id: event.clientId ?? null,
        cid: event.cid ?? null,
        question_id: event.questionId ?? null,
        event_time_ms: time,
        event: event.event ?? null,
      });
    }
    const total = answer.events.length + answer.rejects.length;
    const full = total >= EVENTS_PER_ANSWER;
    if (full && newest <= cursor && overlap) {
      // a whole answer within the cursor's millisecond: asking again from there would get the same answer
      log?.warn(
        { channel: client.channel, cursor: new Date(cursor).toISOString() },
        `more than ${EVENTS_PER_ANSWER} Chat API events share one millisecond: those beyond the answer are skipped`,
      );
      newest = cursor + 1;
    }
    const [inserted = 0] = await warehouse.execute(
      storeEventsPage({
        channel: client.channel,
        runId: options.runId,
        events: rows,
        rejects,
        cursor: newest,
        now: now(),
      }),
    );
    cursor = newest;
    overlap = full;
    result.read += answer.events.length;
    result.stored += inserted;
    result.rejects += rejects.length;
    result.cursor = cursor;
    result.answers++;
    options.onPage?.({ read: answer.events.length, stored: inserted, cursor });
    if (!full && !options.follow) break;
  }
  return result;
}
