// parseCommandArgs, the one strict parse of every command: words that are not options are left to parseArgs
// (refused, exit 2 through main), returned, or refused as a usage error with the command's hint.
import { describe, expect, it } from 'vitest';
import { intOption, parseCommandArgs } from '../../src/cli/args.js';
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

  it('reads a negative number after an option that takes a value as its value, for the command to check', () => {
    // parseArgs alone refuses `--project -1` as an ambiguous option, a message that names no range
    expect(parseCommandArgs(['--project', '-1', '--json'], options).values).toEqual({
      project: '-1',
      json: true,
    });
    expect(parseCommandArgs(['--project', '-2.5'], options).values).toEqual({ project: '-2.5' });
    // a boolean option is not followed by a value: the number stays a word, refused as before
    expect(() => parseCommandArgs(['--json', '-1'], options)).toThrow(
      expect.objectContaining({ code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' }),
    );
    let refused: unknown;
    try {
      intOption(parseCommandArgs(['--project', '-1'], options).values.project, 'concurrency', 4, 1);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as Error).message).toBe('--concurrency expects a whole number of at least 1, got "-1"');
    expect(() => intOption('31', 'wait-time', 20, 0, 30)).toThrow(
      '--wait-time expects a whole number from 0 to 30, got "31"',
    );
  });
});
