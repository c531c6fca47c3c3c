// Reads every page of a paged filter operation and says whether the result is complete: the same
// totalCount on every page and exactly that many distinct records. Page 0 comes first (it tells the
// total); the other pages are then requested together (the client's concurrency bound applies).
// Page drift (rows arriving while paging) shows up as a changed totalCount or a count mismatch.
import type { ReporterHttp } from './http.js';

export interface PagedRead {
  /** Raw records, deduplicated by id where the id could be read (records without one are all kept). */
  records: unknown[];
  /** totalCount of page 0. */
  totalCount: number;
  complete: boolean;
  /** Why the read is not complete. */
  problem?: string;
  /** The total was above `stopAbove`: only page 0 was read. */
  tooLarge?: boolean;
  pages: number;
}

export interface PagedRequest {
  op: string;
  key: 'sessions' | 'messages' | 'clients';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  pageSize: number;
  idOf(record: unknown): string | undefined;
  /** Stop after page 0 when totalCount is above this (the caller splits the window instead). */
  stopAbove?: number;
}

interface Page {
  totalCount: number;
  pageSize: number;
  rows: unknown[];
}

async function readPage(http: ReporterHttp, req: PagedRequest, page: number): Promise<Page> {
  const answer = await http.json<Record<string, unknown>>({
    method: 'POST',
    op: req.op,
    query: { ...req.query, page, size: req.pageSize },
    body: req.body ?? {},
  });
  const paging = answer?.['paging'] as { totalCount?: unknown; pageSize?: unknown } | undefined;
  const rows = answer?.[req.key];
  if (!paging || typeof paging.totalCount !== 'number' || !Array.isArray(rows)) {
    throw new Error(`${req.op} answered without paging.totalCount or a ${req.key} array`);
  }
  const pageSize =
    typeof paging.pageSize === 'number' && paging.pageSize > 0 ? paging.pageSize : req.pageSize;
  return { totalCount: paging.totalCount, pageSize, rows };
}

export async function readAllPages(http: ReporterHttp, req: PagedRequest): Promise<PagedRead> {
  const first = await readPage(http, req, 0);
  if (req.stopAbove !== undefined && first.totalCount > req.stopAbove) {
    return {
      records: [],
      totalCount: first.totalCount,
      complete: false,
      tooLarge: true,
      problem: 'too many records',
      pages: 1,
    };
  }
  const pageCount = Math.max(1, Math.ceil(first.totalCount / first.pageSize));
  const rest = await Promise.all(Array.from({ length: pageCount - 1 }, (_, n) => readPage(http, req, n + 1)));
  const pages = [first, ...rest];
  const seen = new Map<string, unknown>();
  const anonymous: unknown[] = [];
  for (const page of pages) {
    for (const row of page.rows) {
      const id = req.idOf(row);
      if (id === undefined) anonymous.push(row);
      else seen.set(id, row);
    }
  }
  const totals = [...new Set(pages.map((p) => p.totalCount))];
  const distinct = seen.size + anonymous.length;
  let problem: string | undefined;
  if (totals.length > 1) problem = `totalCount changed while paging (${totals.join(', ')})`;
  else if (pages.some((p, n) => p.rows.length === 0 && n * first.pageSize < first.totalCount))
    problem = 'a page was empty before totalCount was reached';
  else if (distinct !== first.totalCount)
    problem = `read ${distinct} distinct records, totalCount says ${first.totalCount}`;
  return {
    records: [...seen.values(), ...anonymous],
    totalCount: first.totalCount,
    complete: problem === undefined,
    ...(problem === undefined ? {} : { problem }),
    pages: pages.length,
  };
}
