// The demo's Pushgate step: one run of the sync job with an alert rule that holds (any unrecognised question
// in the last 24 hours: a transfer was too rare in a small demo's last day to count on) and REPORTER_PUSHGATE_URL on the emulator's ops pushback, so the rule fires and the run's
// notification arrives; then what the emulated Pushgate received, as its bot would read it.
import { DEFAULT_PUSHBACK_ID } from '../emulator/pushgate/pushgate.js';
import type { RunningEmulator } from '../emulator/server.js';
import { EXIT } from '../errors.js';
import type { CommandIo } from './command.js';
import { runCommand } from './commands/run.js';

export const DEMO_ALERT_RULES = [{ name: 'demo-unrecognised', metric: 'unrecognisedShare', above: 0 }];

/** Runs the step; returns the run's code, or 1 when the notification did not arrive. */
export async function showDemoNotification(running: RunningEmulator, io: CommandIo): Promise<number> {
  const pushgate = running.emulator.pushgate;
  const before = pushgate.receipts(DEFAULT_PUSHBACK_ID).length;
  Object.assign(process.env, {
    REPORTER_PUSHGATE_URL: `${running.url}/pushgate/push_${DEFAULT_PUSHBACK_ID}`,
    REPORTER_ALERTS: JSON.stringify(DEMO_ALERT_RULES),
  });
  const code = await runCommand.run(['sync'], io);
  const received = pushgate.receipts(DEFAULT_PUSHBACK_ID).slice(before);
  io.out(
    `Pushgate received ${received.length} push${received.length === 1 ? '' : 'es'} on the ops pushback (${DEFAULT_PUSHBACK_ID.slice(0, 4)}…):`,
  );
  for (const r of received) io.out(JSON.stringify(r.body, null, 2));
  return received.length === 1 ? code : EXIT.failed;
}
