// `npm run layers`: rewrites biome.json's layering overrides from the table (layers/layer-table.ts), keeping every
// other part of biome.json as it is, then lets Biome format the file. test/layering.test.ts fails until it is run.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildLayerOverrides, isLayerOverride } from './biome-layer-rules.js';

/** The repository's root, from the source file or its compiled copy in dist/layers/. */
function findRoot(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  return join(here, here.includes('/dist/') ? '../..' : '..');
}

function writeBiomeLayers(root: string): void {
  const file = join(root, 'biome.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as { overrides?: unknown[] };
  const kept = (config.overrides ?? []).filter((override) => !isLayerOverride(override));
  config.overrides = [...kept, ...buildLayerOverrides()];
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  const biome = join(root, 'node_modules/@biomejs/biome/bin/biome');
  const run = spawnSync(process.execPath, [biome, 'format', '--write', file], {
    cwd: root,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`biome format failed: ${run.stdout}${run.stderr}`);
  process.stdout.write(`biome.json: ${config.overrides.length - kept.length} layering overrides written\n`);
}

writeBiomeLayers(findRoot());
