// Step: the parse floor. The full sync's requests replayed as for the transfer floor, each body also
// parsed and dropped: once by V8 (UTF-8 decoding and JSON.parse, what the sync's JavaScript does first with
// every page) and once by DuckDB on one thread (what handing the pages to DuckDB's JSON reader would do
// first). The statuses report files are CSV: both replays split them into records of fields (the least
// any reader of them does). Their CPU less the transfer floor's is what parsing the bodies costs at least, whoever parses them.
import type { BenchContext } from '../bench-context.js';
import type { BenchStep, StepFigures } from '../bench-step.js';
import { replayRecorded } from './replay-recorded.js';

export const parseFloorStep: BenchStep = {
  id: 'parse-floor',
  title: 'Parse floor: the same requests, each body parsed (V8, then DuckDB)',
  needs: ['full-sync'],
  async run(ctx: BenchContext): Promise<StepFigures> {
    // two more replays of a million messages' answers would lengthen a --large run by minutes: there, only
    // when asked by name
    if (ctx.options.large && !ctx.options.only?.includes('parse-floor')) {
      const note = 'not run with --large unless named: npm run bench -- --large --only parse-floor';
      return { cpuSeconds: { value: null, unit: 's', note } };
    }
    const file = ctx.fullSync!.requestsFile;
    const v8 = await replayRecorded(ctx, file, 'parse-json', {}, 'json');
    const duckdb = await replayRecorded(ctx, file, 'parse-duckdb', {}, 'duckdb');
    const cpu = (note: string) => ({
      unit: 's' as const,
      note: `user + system CPU of the replay process, ${note}`,
    });
    return {
      seconds: { value: v8.wallMs / 1000, unit: 's', note: 'bodies decoded and JSON.parse-d' },
      megabytes: { value: v8.bytes / 1e6, unit: 'MB', note: 'response bodies' },
      cpuSeconds: { value: v8.cpuSeconds, ...cpu('bodies decoded and JSON.parse-d') },
      duckdbSeconds: { value: duckdb.wallMs / 1000, unit: 's', note: 'bodies parsed by DuckDB' },
      duckdbCpuSeconds: { value: duckdb.cpuSeconds, ...cpu('bodies parsed by DuckDB (json_valid)') },
      csvRecords: {
        value: v8.csvRecords,
        unit: 'count',
        note: 'records of the statuses report files split into fields (header lines included)',
      },
    };
  },
};
