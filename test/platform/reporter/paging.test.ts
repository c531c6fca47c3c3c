// readAllPages against servers that cap pages below the asked `size`: the client pages by the rows page 0
// held, not by what it asked, whether the server reports the size it used or echoes the one asked (and
// then counts page n from n × the asked size).
import { describe, expect, it } from 'vitest';
import { readAllPages } from '../../../src/platform/reporter/paging.js';
import type { ReporterHttp, ReporterRequest } from '../../../src/platform/reporter/reporter-http.js';

const TOTAL = 1234;
const CAP = 100;

/** A fake paged operation over rows r0..r1233 answering at most CAP rows. */
function cappedServer(style: 'reports-used-size' | 'echoes-asked-size') {
  const asked: { page: number; size: number }[] = [];
  const http = {
    async json(req: ReporterRequest) {
      const page = Number(req.query?.['page']);
      const size = Number(req.query?.['size']);
      asked.push({ page, size });
      const used = Math.min(size, CAP);
      const from = page * (style === 'reports-used-size' ? used : size);
      const ids = Array.from(
        { length: Math.max(0, Math.min(TOTAL, from + used) - from) },
        (_, n) => from + n,
      );
      return {
        paging: { pageNum: page, pageSize: style === 'reports-used-size' ? used : size, totalCount: TOTAL },
        sessions: ids.map((n) => ({ sessionId: `r${n}` })),
      };
    },
  } as unknown as ReporterHttp;
  return { http, asked };
}

describe('readAllPages with pages capped by the server', () => {
  for (const style of ['reports-used-size', 'echoes-asked-size'] as const) {
    it(`reads every row when the server ${style.replaceAll('-', ' ')}`, async () => {
      const { http, asked } = cappedServer(style);
      const read = await readAllPages(http, {
        op: 'sessions/filter',
        key: 'sessions',
        pageSize: 500,
        idOf: (r) => (r as { sessionId: string }).sessionId,
      });
      expect(read.problem).toBeUndefined();
      expect(read.complete).toBe(true);
      expect(read.records).toHaveLength(TOTAL);
      expect(new Set(read.records.map((r) => (r as { sessionId: string }).sessionId)).size).toBe(TOTAL);
      expect(read.pages).toBe(Math.ceil(TOTAL / CAP));
      // the pages after the first are asked with the size the server answered
      expect(asked.slice(1).every((a) => a.size === CAP)).toBe(true);
    });
  }

  it('one page when page 0 holds everything, whatever paging.pageSize says', async () => {
    let calls = 0;
    const http = {
      async json() {
        calls++;
        return {
          paging: { pageNum: 0, pageSize: 2, totalCount: 3 },
          sessions: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
        };
      },
    } as unknown as ReporterHttp;
    const read = await readAllPages(http, {
      op: 'sessions/filter',
      key: 'sessions',
      pageSize: 500,
      idOf: (r) => (r as { id: string }).id,
    });
    expect(read.complete).toBe(true);
    expect(calls).toBe(1);
  });
});

describe('readAllPages with a proceed gate', () => {
  const request = (proceed: () => Promise<boolean>) => ({
    op: 'sessions/filter',
    key: 'sessions',
    pageSize: 500,
    idOf: (r: unknown) => (r as { sessionId: string }).sessionId,
    proceed,
  });

  it('reads page 0 at once and the other pages only once the gate says yes', async () => {
    const { http, asked } = cappedServer('reports-used-size');
    let open!: (yes: boolean) => void;
    const gate = new Promise<boolean>((resolve) => {
      open = resolve;
    });
    const reading = readAllPages(
      http,
      request(() => gate),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    // waiting at the gate: page 0 only
    expect(asked.map((a) => a.page)).toEqual([0]);
    open(true);
    const read = await reading;
    expect(read.complete).toBe(true);
    expect(read.records).toHaveLength(TOTAL);
    expect(asked).toHaveLength(Math.ceil(TOTAL / CAP));
  });

  it('stops after page 0 when the gate says no: dropped, nothing kept', async () => {
    const { http, asked } = cappedServer('reports-used-size');
    const read = await readAllPages(
      http,
      request(async () => false),
    );
    expect(read).toMatchObject({ dropped: true, complete: false, records: [], pages: 1, totalCount: TOTAL });
    expect(asked).toHaveLength(1);
  });
});
