// The layering lint rule (biome.json: noRestrictedImports per folder) refuses an import against the dependency
// direction and lets the allowed ones through: probe files are linted with the project's biome.json, copied
// into a temporary folder laid out like the repository (the rule's folders are relative to the config).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/@biomejs/biome/bin/biome');

/** [file, imported specifier]: each must be refused. */
const REFUSED: [string, string][] = [
  ['src/warehouse/probe.ts', '../reporter/http.js'],
  ['src/reporter/probe.ts', '../warehouse/warehouse.js'],
  ['src/sync/probe.ts', '../schedule/job.js'],
  ['src/stats/probe.ts', '../sync/map-records.js'],
  ['src/report/probe.ts', '../../reports/index.js'],
  ['src/schedule/probe.ts', '../cli/main.js'],
  ['src/manage/probe.ts', '../cli/args.js'],
  ['src/platform-reports/probe.ts', '../../jobs/registry.js'],
  ['src/time/probe.ts', '../stats/compute-stats.js'],
  ['src/emulator/probe.ts', '../reporter/schemas.js'],
  ['src/emulator/routes/probe.ts', '../../errors.js'],
  ['src/config-probe.ts', './reporter/http.js'],
  ['src/chatapi/probe.ts', '../schedule/job.js'],
  ['src/warehouse/probe-2.ts', '../chatapi/follow-events.js'],
  ['src/chatapi/probe-2.ts', '../webhooks/spool.js'],
  ['src/webhooks/probe.ts', '../schedule/job.js'],
  ['src/lake/probe.ts', '../cli/main.js'],
  ['src/lake/probe-2.ts', '../clickhouse/export-clickhouse.js'],
  ['src/warehouse/probe-3.ts', '../lake/export-parquet.js'],
  ['src/prompter/probe.ts', '../webhooks/spool.js'],
  ['src/kb/probe.ts', '../schedule/job.js'],
  ['src/kb/probe-2.ts', '../chatapi/chatapi-client.js'],
  ['src/warehouse/probe-4.ts', '../prompter/ask-prompter.js'],
  ['src/pushgate/probe.ts', '../schedule/job.js'],
  ['src/warehouse/probe-5.ts', '../pushgate/send-notification.js'],
  ['src/alerts/probe.ts', '../schedule/job.js'],
  ['src/stats/probe-2.ts', '../alerts/evaluate-alerts.js'],
  ['jobs/probe.ts', '../src/cli/main.js'],
  ['reports/probe/report.ts', '../../jobs/registry.js'],
  ['src/kb-eval/probe.ts', '../manage/use-warehouse.js'],
  ['src/kb/probe-eval.ts', '../kb-eval/run-kb-eval.js'],
];

/** Imports the direction allows. */
const ALLOWED: [string, string][] = [
  ['src/sync/allowed.ts', '../reporter/http.js'],
  ['src/sync/allowed-2.ts', '../warehouse/warehouse.js'],
  ['src/chatapi/allowed.ts', '../reporter/http.js'],
  ['src/prompter/allowed.ts', '../reporter/http.js'],
  ['src/kb/allowed.ts', '../reporter/http.js'],
  ['src/kb/allowed-2.ts', '../warehouse/warehouse.js'],
  ['src/webhooks/allowed.ts', '../chatapi/parse-chatapi-time.js'],
  ['src/lake/allowed.ts', '../warehouse/warehouse.js'],
  ['src/clickhouse/allowed.ts', '../lake/partitions.js'],
  ['jobs/allowed-2.ts', '../src/chatapi/follow-events.js'],
  ['src/pushgate/allowed.ts', '../reporter/http.js'],
  ['src/schedule/allowed-2.ts', '../pushgate/send-notification.js'],
  ['src/alerts/allowed.ts', '../stats/compute-stats.js'],
  ['src/alerts/allowed-2.ts', '../pushgate/notification-event.js'],
  ['src/report/allowed.ts', '../stats/compute-stats.js'],
  ['src/schedule/allowed.ts', '../time/parse-zoned-time.js'],
  ['src/cli/commands/allowed.ts', '../../../jobs/registry.js'],
  ['src/emulator/routes/allowed.ts', '../reports/report-tasks.js'],
  ['jobs/allowed.ts', '../src/report/write-report.js'],
  ['src/kb-eval/allowed.ts', '../kb/kb-client.js'],
  ['src/kb-eval/allowed-2.ts', '../warehouse/warehouse.js'],
  ['src/manage/allowed.ts', '../kb-eval/read-eval-questions.js'],
];

const dir = mkdtempSync(join(tmpdir(), 'layering-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeProbe(file: string, specifier: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), `// probe\nimport { x } from '${specifier}';\n\nexport const y = x;\n`);
}

describe('layering lint rule', () => {
  it('refuses every import against the direction and no allowed one', () => {
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    for (const [file, specifier] of [...REFUSED, ...ALLOWED]) writeProbe(file, specifier);
    const run = spawnSync(
      process.execPath,
      [BIOME, 'lint', '--max-diagnostics=100', '--colors=off', 'src', 'jobs', 'reports'],
      { cwd: dir, encoding: 'utf8', timeout: 60_000 },
    );
    const output = `${run.stdout}${run.stderr}`;
    const flagged = new Set(
      [...output.matchAll(/^(\S+\.ts):\d+:\d+ lint\/style\/noRestrictedImports/gm)].map((m) => m[1]),
    );
    expect(run.status, output).toBe(1);
    expect([...flagged].sort()).toEqual(REFUSED.map(([file]) => file).sort());
  });
});
