// An answer of the wrong shape from the Reporter API is an EtlError with the catalogued code
// reporter.invalid_answer, from the paged reads and the catalogue reads alike (not a plain Error).
import { describe, expect, it } from 'vitest';
import { EtlError } from '../../../src/errors.js';
import { listSessionLabels } from '../../../src/platform/reporter/catalogues.js';
import { readAllPages } from '../../../src/platform/reporter/paging.js';
import type { ReporterHttp } from '../../../src/platform/reporter/reporter-http.js';

const answering = (answer: unknown) => ({ json: async () => answer }) as unknown as ReporterHttp;

describe('answers of the wrong shape', () => {
  it('a page without paging is reporter.invalid_answer', async () => {
    const read = readAllPages(answering({ sessions: [] }), {
      op: 'sessions/filter',
      key: 'sessions',
      pageSize: 10,
      idOf: () => undefined,
    });
    await expect(read).rejects.toBeInstanceOf(EtlError);
    await expect(read).rejects.toMatchObject({ code: 'reporter.invalid_answer', kind: 'terminal' });
  });

  it('a catalogue that is not a list of labels is reporter.invalid_answer', async () => {
    const read = listSessionLabels(answering([{ nothing: true }]));
    await expect(read).rejects.toBeInstanceOf(EtlError);
    await expect(read).rejects.toMatchObject({ code: 'reporter.invalid_answer' });
  });
});
