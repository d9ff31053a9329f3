/**
 * Lists paged by the server (src/domain/paging.ts) as TanStack Query infinite queries: the first page is the
 * list's query with `limit`, each next page the same query with the cursor of the previous page's
 * `Link: rel="next"` — and `limit` set to `nextLimit` when later pages are larger than the first (the wallet
 * overview shows 3, then +10).
 */
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { answerPage, type ListPage } from './api-client.ts';

/** The query parameters every list takes. */
interface PageQuery {
  limit?: number;
  cursor?: string;
}

/**
 * `readPage` reads one page with the typed client, e.g.
 * `(query) => client.GET('/api/bets', { params: { query } })`; `query` is the list's filter.
 */
export function pagedQueryOptions<T, Q extends object, K extends QueryKey>(
  queryKey: K,
  readPage: (query: Q & PageQuery) => Promise<{ data?: T[]; response: Response }>,
  query: Q,
  { limit, nextLimit = limit }: { limit: number; nextLimit?: number },
) {
  return infiniteQueryOptions<ListPage<T>, Error, InfiniteData<ListPage<T>, PageQuery>, K, PageQuery>({
    queryKey,
    queryFn: ({ pageParam }) => answerPage(readPage({ ...query, ...pageParam })),
    initialPageParam: { limit },
    getNextPageParam: (last) => (last.cursor === null ? undefined : { limit: nextLimit, cursor: last.cursor }),
  });
}

/** Every row of the pages loaded so far, in order. */
export function itemsOf<T>(data: InfiniteData<ListPage<T>> | undefined): T[] | undefined {
  return data?.pages.flatMap((page) => page.items);
}

/** A paged list's query, plus its rows so far and the count (and stake) the first page carried, if any. */
export function usePagedList<T, Q extends object, K extends QueryKey>(
  options: ReturnType<typeof pagedQueryOptions<T, Q, K>>,
  { enabled = true } = {},
) {
  const query = useInfiniteQuery({ ...options, enabled });
  const first = query.data?.pages[0];
  return { ...query, items: itemsOf(query.data), total: first?.total ?? null, stake: first?.stake ?? null };
}
