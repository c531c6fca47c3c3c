// Fire times of a cron expression in a time zone, for any instant (not only "now"): the previous and next
// fire and the interval between the two latest fires, which decide catch-up and `schedule --list`.
// node-cron's own matcher decides whether an instant fires, so these agree with the ticks it sends.
import { createTask, parse, type ScheduledTask } from 'node-cron';
import { offsetAt } from '../time/parse-zoned-time.js';

const HOUR_MS = 3_600_000;
/** How far the walk looks: two previous fires of a yearly schedule are at most two years (and a leap day) apart. */
const MAX_HOURS = (2 * 366 + 2) * 24;

interface Matcher {
  task: ScheduledTask;
  minutes: number[];
  seconds: number[];
}

const matchers = new Map<string, Matcher>();

function matcherOf(expression: string, timeZone: string): Matcher {
  const key = `${timeZone}\n${expression}`;
  let matcher = matchers.get(key);
  if (!matcher) {
    const fields = parse(expression);
    // a task that is never started: only its matcher is used
    const task = createTask(expression, () => undefined, { timezone: timeZone });
    matcher = {
      task,
      minutes: [...fields.minute].sort((a, b) => a - b),
      seconds: [...fields.second].sort((a, b) => a - b),
    };
    matchers.set(key, matcher);
  }
  return matcher;
}

/** The start of the local hour (in `timeZone`) that holds `t`. */
function localHourStart(t: number, timeZone: string): number {
  const wall = t + offsetAt(t, timeZone);
  return t - (((wall % HOUR_MS) + HOUR_MS) % HOUR_MS);
}

/** The latest fire time at or before `at` (epoch ms), or undefined when none is within two years. */
export function previousFireTime(expression: string, timeZone: string, at: number): number | undefined {
  const m = matcherOf(expression, timeZone);
  let hour = localHourStart(at, timeZone);
  for (let i = 0; i < MAX_HOURS; i++, hour -= HOUR_MS) {
    // every instant of one local hour shares its day, month, weekday and hour: probe the hour once
    if (!m.task.match(new Date(hour + m.minutes[0]! * 60_000 + m.seconds[0]! * 1000))) continue;
    for (let a = m.minutes.length - 1; a >= 0; a--)
      for (let b = m.seconds.length - 1; b >= 0; b--) {
        const candidate = hour + m.minutes[a]! * 60_000 + m.seconds[b]! * 1000;
        if (candidate <= at && m.task.match(new Date(candidate))) return candidate;
      }
  }
  return undefined;
}

/** The earliest fire time strictly after `after` (epoch ms), or undefined when none is within two years. */
export function nextFireTime(expression: string, timeZone: string, after: number): number | undefined {
  const m = matcherOf(expression, timeZone);
  let hour = localHourStart(after, timeZone);
  for (let i = 0; i < MAX_HOURS; i++, hour += HOUR_MS) {
    if (!m.task.match(new Date(hour + m.minutes[0]! * 60_000 + m.seconds[0]! * 1000))) continue;
    for (const minute of m.minutes)
      for (const second of m.seconds) {
        const candidate = hour + minute * 60_000 + second * 1000;
        if (candidate > after && m.task.match(new Date(candidate))) return candidate;
      }
  }
  return undefined;
}

/**
 * The schedule's interval as of `at`: the time between its two latest fires at or before `at`
 * (15 min for every-15-minutes; 24 h for a daily job; 72 h for a weekday job on a Monday).
 */
export function scheduleInterval(expression: string, timeZone: string, at: number): number | undefined {
  const latest = previousFireTime(expression, timeZone, at);
  if (latest === undefined) return undefined;
  const before = previousFireTime(expression, timeZone, latest - 1);
  return before === undefined ? undefined : latest - before;
}
