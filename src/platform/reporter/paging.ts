// Reads every page of a paged filter operation and says whether the result is complete: the same
// totalCount on every page and exactly that many distinct records. Page 0 comes first (it tells the
// total); the other pages are then requested together (the client's concurrency bound applies).
// A server may answer fewer rows than `size` asks (it caps pages): the client pages by what page 0 held, not
// by what it asked, and asks the other pages with that size, so page n starts at n × that size either way.
// Page drift (rows arriving while paging) shows up as a changed totalCount or a count mismatch.
// `transform` turns each record into what the caller keeps as soon as its page arrives, so a large
// read never holds every raw page at once (the sync keeps compact rows, not the wire records). `proceed`
// lets a caller read page 0 while it decides whether it wants the rest.
import { EtlError } from '../../errors.js';
import type { ReporterHttp } from './reporter-http.js';

export interface PagedRead<T = unknown> {
  /** Records (transformed), deduplicated by id where the id could be read (records without one are all kept). */
  records: T[];
  /** totalCount of page 0. */
  totalCount: number;
  complete: boolean;
  /** Why the read is not complete. */
  problem?: string;
  /** The total was above `stopAbove`: only page 0 was read. */
  tooLarge?: boolean;
  /** `proceed` answered false: only page 0 was read, and the caller has no use for it. */
  dropped?: boolean;
  pages: number;
}

export interface PagedRequest<T = unknown> {
  op: string;
  /** The answer's array of records: sessions, messages, clients, routes (state-routes/filter). */
  key: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  pageSize: number;
  idOf(record: unknown): string | undefined;
  /** Stop after page 0 when totalCount is above this (the caller splits the window instead). */
  stopAbove?: number;
  /** What to keep of each record, applied as its page arrives (default: the record itself). */
  transform?(record: unknown): T;
  /**
   * Asked after page 0, before the other pages: false drops the read (a window read at once with its sessions,
   * which may yet say it is too large). Page 0 is read meanwhile.
   */
  proceed?: () => Promise<boolean>;
}

interface Page<T> {
  totalCount: number;
  pageSize: number;
  /** Length of the page's record array. */
  length: number;
  /** [id or undefined, transformed record] in page order. */
  rows: [string | undefined, T][];
}

async function readPage<T>(
  http: ReporterHttp,
  req: PagedRequest<T>,
  page: number,
  size = req.pageSize,
): Promise<Page<T>> {
  const answer = await http.json<Record<string, unknown>>({
    method: 'POST',
    read: true,
    op: req.op,
    query: { ...req.query, page, size },
    body: req.body ?? {},
  });
  const paging = answer?.['paging'] as { totalCount?: unknown; pageSize?: unknown } | undefined;
  const rows = answer?.[req.key];
  if (!paging || typeof paging.totalCount !== 'number' || !Array.isArray(rows)) {
    throw new EtlError(
      'reporter.invalid_answer',
      `${req.op}: the Reporter API answered without paging.totalCount or a ${req.key} array`,
    );
  }
  const pageSize = typeof paging.pageSize === 'number' && paging.pageSize > 0 ? paging.pageSize : size;
  const transform = req.transform ?? ((record: unknown) => record as T);
  return {
    totalCount: paging.totalCount,
    pageSize,
    length: rows.length,
    rows: rows.map((row) => [req.idOf(row), transform(row)]),
  };
}

export async function readAllPages<T = unknown>(
  http: ReporterHttp,
  req: PagedRequest<T>,
): Promise<PagedRead<T>> {
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
  if (req.proceed !== undefined && !(await req.proceed()))
    return {
      records: [],
      totalCount: first.totalCount,
      complete: false,
      dropped: true,
      problem: 'dropped',
      pages: 1,
    };
  // page 0 is full unless it is the only one: its length is the server's page size, whatever was asked
  // or paging.pageSize says (an empty page 0 tells nothing: the reported size, then the emptiness check)
  const pageSize = first.length > 0 ? first.length : Math.min(first.pageSize, req.pageSize);
  const pageCount = first.length >= first.totalCount ? 1 : Math.ceil(first.totalCount / pageSize);
  const rest = await Promise.all(
    Array.from({ length: pageCount - 1 }, (_, n) => readPage(http, req, n + 1, pageSize)),
  );
  const pages = [first, ...rest];
  const seen = new Map<string, T>();
  const anonymous: T[] = [];
  for (const page of pages) {
    for (const [id, row] of page.rows) {
      if (id === undefined) anonymous.push(row);
      else seen.set(id, row);
    }
  }
  const totals = [...new Set(pages.map((p) => p.totalCount))];
  const distinct = seen.size + anonymous.length;
  let problem: string | undefined;
  if (totals.length > 1) problem = `totalCount changed while paging (${totals.join(', ')})`;
  else if (pages.some((p, n) => p.length === 0 && n * pageSize < first.totalCount))
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
