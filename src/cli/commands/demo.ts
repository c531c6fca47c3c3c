// `reporter-etl demo`: the whole flow for a newcomer, with no configuration: starts the emulator
// in-process with a seeded week of data, syncs it into a demo warehouse, prints the statistics,
// builds a platform report and reconciles it, then says where everything was written. It writes only into a
// folder of its own (demo-folder.ts: new, empty, or marked by an earlier demo; anything else is refused before
// the flow, demo-flow.ts, is even loaded). A signal stops it between steps.

import { resolve } from 'node:path';
import { EXIT } from '../../errors.js';
import { listenForShutdown, stoppingMessage } from '../../schedule/shutdown-signals.js';
import { intOption, parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { DEMO_KB_QUESTIONS } from '../demo-kb.js';
import { DEMO_MARKER, prepareDemoDir, recordCreated } from './demo-folder.js';

const HELP = `reporter-etl demo [--sessions N] [--data-dir DIR] [--keep]

Runs the whole flow against the built-in emulator, with no configuration:
  1. starts the emulator in this process (a seeded week of data, --sessions, default 3000): the Reporter
     API, and the Chat API of the same world (channel "site")
  2. a customer's app talks to the bot through the Chat API: a few questions, one handed to an agent
  3. reporter-etl sync        → DIR/warehouse.duckdb: the Reporter's data, then the channel's history
  4. reporter-etl webhooks (in this process): two questions asked asynchronously, whose answers the platform
     pushes to it → chatapi_webhook_events
  5. reporter-etl chatapi-events
                              → the channel's events (bot answers, agent replies) in chatapi_events
  6. reporter-etl stats       → the week's figures, by day in Europe/Moscow (the delivery funnel with chatapi)
  7. reporter-etl report summary (twice: XLSX, then --format html)
                              → DIR/reports/summary_<first day>_<last day>.xlsx: the last 7 whole days in
                                Europe/Moscow, with KPIs, tables and charts, for Excel or LibreOffice,
                                and .html, the same as one page for a browser
  8. reporter-etl platform-report messages --reconcile
                              → DIR/platform-reports/, compared with the warehouse
  9. reporter-etl run sync with REPORTER_PUSHGATE_URL and an alert rule that holds (any unrecognised
     question in the last 24 h): the rule fires and the run's notification arrives at the emulated Pushgate, shown as
     received
 10. reporter-etl kb sync     → a snapshot of the emulated knowledge base (sources, integrations, segments,
                                API keys) in the warehouse
 11. reporter-etl kb eval --questions DIR/kb-questions.csv
                              → ${DEMO_KB_QUESTIONS} questions written from the emulator's truth (the source of each and
                                the text its answer must contain): hit@1, hit@5, MRR, answers, latency
 12. reporter-etl report kb-eval
                              → DIR/reports/kb-eval_<today>_<today>.xlsx: the run's figures and worst questions
and prints the paths of what it wrote, last the HTML summary to open. DIR defaults to ./data/demo.
Next steps it suggests: the other reports (reporter-etl report --list) and the scheduler
(reporter-etl schedule --list; reporter-etl run sync).

The demo may only remove what it created. It writes into a new or empty DIR, which it marks with a file
named ${DEMO_MARKER} listing every file and folder it writes there; a rerun into that DIR removes exactly
those first (unless --keep). A DIR that holds anything the demo did not write (your warehouse, a file you
added, a folder with a copied or older marker), or that holds the working folder, is refused (exit 2) and
left untouched.

SIGTERM or Ctrl-C stops the demo: the step in progress stops (the sync at a window boundary), no further
step runs, and it exits 75.

Options:
  --sessions N     sessions in the emulator's week (default 3000; more makes every step slower)
  --data-dir DIR   where it writes (default ./data/demo): a new or empty folder, or one an earlier demo marked
  --keep           keep what an earlier demo wrote in DIR instead of removing it first

Needs no setting: REPORTER_TOKEN, REPORTER_BASE_URL and REPORTER_DATA_DIR are ignored (the emulator's are used).

Exit codes: 0 ok; a step's own code when one did not succeed (1 failed, 3 partial: its output says which);
2 DIR is refused (not the demo's, or a file); 75 stopped by SIGTERM or Ctrl-C.

Examples:
  reporter-etl demo
  reporter-etl demo --sessions 20000 --data-dir /tmp/demo
  REPORTER_DATA_DIR=/tmp/demo reporter-etl stats --tz Europe/Moscow     # then look around by hand
`;

export const demoCommand: Command = {
  name: 'demo',
  help: HELP,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      sessions: { type: 'string' },
      'data-dir': { type: 'string' },
      keep: { type: 'boolean' },
    });
    const dataDir = resolve(values['data-dir'] ?? 'data/demo');
    const sessions = intOption(values.sessions, 'sessions', 3000, 100);
    const manifest = prepareDemoDir(dataDir, values.keep ?? false);
    // SIGTERM / Ctrl-C: the step in progress stops (the sync between windows, a report), no further step runs
    const controller = new AbortController();
    let stoppedBy: NodeJS.Signals | undefined;
    const dispose = listenForShutdown({
      onStop(signal) {
        stoppedBy = signal;
        io.err(stoppingMessage('demo', signal, 'the current step'));
        controller.abort(new Error(`stopped by ${signal}`));
      },
      onForce(signal) {
        io.err(`reporter-etl demo: second ${signal}: exiting now`);
        recordCreated(dataDir, manifest);
        process.exit(EXIT.tryLater);
      },
    });
    try {
      const { runDemo } = await import('./demo-flow.js');
      return await runDemo(io, dataDir, sessions, manifest, controller.signal, () => stoppedBy);
    } finally {
      dispose();
      recordCreated(dataDir, manifest);
    }
  },
};
