// parseCommandArgs, the one strict parse of every command: words that are not options are left to parseArgs
// (refused, exit 2 through main), returned, or refused as a usage error with the command's hint.
import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from '../../src/cli/args.js';
import { UsageError } from '../../src/errors.js';

const options = { json: { type: 'boolean' }, project: { type: 'string' } } as const;

describe('parseCommandArgs', () => {
  it('reads the options and refuses an unknown one the way parseArgs does', () => {
    expect(parseCommandArgs(['--json', '--project', 'shop'], options).values).toEqual({
      json: true,
      project: 'shop',
    });
    expect(() => parseCommandArgs(['--nope'], options)).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }),
    );
  });

  it('leaves words to parseArgs, returns them, or refuses them with the hint', () => {
    expect(() => parseCommandArgs(['word'], options)).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' }),
    );
    expect(parseCommandArgs(['summary', '--json'], options, 'allow').positionals).toEqual(['summary']);
    const refused = (() => {
      try {
        return parseCommandArgs(['--project', 'a', 'b'], options, { refuse: ' (quote names with spaces)' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toBe('unexpected argument "b" (quote names with spaces)');
  });
});
