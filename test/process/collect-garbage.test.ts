// collect-garbage finds V8's gc() without setting a flag at run time: the tests run with --expose-gc
// (vitest.config.ts) as the CLI does (bin/reporter-etl.js exposes it before the CLI loads).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collectGarbage, createCollectionGate } from '../../src/process/collect-garbage.js';

describe('collectGarbage', () => {
  it('has gc() exposed in the tests and runs a collection', () => {
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('function');
    expect(() => collectGarbage()).not.toThrow();
  });

  it('runs again only once the resident memory has grown by GROWTH_TO_COLLECT since the last collection', () => {
    // in a process of its own: a test worker's heap, after other files, gives memory back on threads of its own
    // at any moment, which would move the resident memory under the test
    const module = pathToFileURL(resolve('dist/src/process/collect-garbage.js')).href;
    const check = `const g = await import(${JSON.stringify(module)});
      g.collectGarbage();
      const before = g.collectionsSoFar();
      g.collectGarbage();
      const skipped = g.collectionsSoFar();
      // native memory V8 does not count, as DuckDB's chunks are; filled, so that its pages are resident
      const held = Buffer.alloc(4 * g.GROWTH_TO_COLLECT, 1);
      g.collectGarbage();
      process.stdout.write(JSON.stringify([skipped - before, g.collectionsSoFar() - before, held.length > 0]));`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', check], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    // nothing allocated since: skipped; grown by four times the threshold: collected
    expect(JSON.parse(r.stdout)).toEqual([0, 1, true]);
  });

  it('counts the growth from the least memory since the last collection, not from its height right after', () => {
    const MB = 1024 * 1024;
    const gate = createCollectionGate(16 * MB);
    expect(gate.shouldCollect(100 * MB), 'the first call').toBe(true);
    // right after a collection, before the finalizers gave back what it freed
    gate.collected(200 * MB);
    expect(gate.shouldCollect(150 * MB), 'settled lower').toBe(false);
    expect(gate.shouldCollect(160 * MB), '10 MB above the least').toBe(false);
    expect(gate.shouldCollect(166 * MB), '16 MB above the least (150), still below 200').toBe(true);
    gate.collected(170 * MB);
    expect(gate.shouldCollect(185 * MB)).toBe(false);
    expect(gate.shouldCollect(186 * MB)).toBe(true);
  });

  it('the bin exposes gc() before the CLI loads', () => {
    // the bin's first lines, run on their own: node without --expose-gc ends with gc() on globalThis
    const bin = resolve('bin/reporter-etl.js');
    const check = `const s = (await import('node:fs')).readFileSync(${JSON.stringify(bin)}, 'utf8');
      const head = s.slice(s.indexOf('if (typeof globalThis.gc'), s.indexOf('const entry'));
      const v8 = (await import('node:v8')).default, vm = (await import('node:vm')).default;
      new Function('v8', 'vm', head)(v8, vm);
      process.stdout.write(typeof globalThis.gc);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', check], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('function');
  });
});
