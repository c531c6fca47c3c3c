// Every setting the configuration reads is documented by its full name in docs/configuration.md (a setting
// written as `_DATABASE` beside its sibling cannot be found by searching for it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_KEYS } from '../../src/config.js';

describe('docs/configuration.md', () => {
  it('names every setting in full', () => {
    const doc = readFileSync('docs/configuration.md', 'utf8');
    const missing = Object.keys(ENV_KEYS).filter((key) => !doc.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });
});
