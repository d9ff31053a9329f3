/**
 * Lists paged by the server (src/domain/paging.ts) as TanStack Query infinite queries: the first page is
 * `url` with `?limit=`, each next page the URL of the previous page's `Link: rel="next"` — with `limit`
 * set to `nextLimit` when later pages are larger than the first (the wallet overview shows 3, then +10).
 */
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { api, type ListPage } from './api-client.ts';

/** `path` with the query parameters that have a value ('' and undefined are left out). */
export function listUrl(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(name, String(value));
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

function withLimit(url: string, limit: number): string {
  const [path, query = ''] = url.split('?');
  const search = new URLSearchParams(query);
  search.set('limit', String(limit));
  return `${path}?${search.toString()}`;
}

export function pagedQueryOptions<T, K extends QueryKey>(
  queryKey: K,
  url: string,
  { limit, nextLimit = limit }: { limit: number; nextLimit?: number },
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => api.getPage<T>(pageParam),
    initialPageParam: withLimit(url, limit),
    getNextPageParam: (last: ListPage<T>) => (last.next ? withLimit(last.next, nextLimit) : undefined),
  });
}

/** Every row of the pages loaded so far, in order. */
export function itemsOf<T>(data: InfiniteData<ListPage<T>> | undefined): T[] | undefined {
  return data?.pages.flatMap((page) => page.items);
}

/** A paged list's query, plus its rows so far and the count (and stake) the first page carried, if any. */
export function usePagedList<T, K extends QueryKey>(
  options: ReturnType<typeof pagedQueryOptions<T, K>>,
  { enabled = true } = {},
) {
  const query = useInfiniteQuery({ ...options, enabled });
  const first = query.data?.pages[0];
  return { ...query, items: itemsOf(query.data), total: first?.total ?? null, stake: first?.stake ?? null };
}
