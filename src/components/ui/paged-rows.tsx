/**
 * A paged list's states: a spinner while its first page loads, the load error in place of its rows (an empty
 * text would claim there is nothing), else its rows and Load More.
 */
import { Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LoadMoreButton, type MoreRows } from './load-more-button.tsx';
import { PageSpinner } from './page-spinner.tsx';
import { LoadError } from './load-error.tsx';

interface PagedList<T> extends MoreRows {
  isPending: boolean;
  isError: boolean;
  items: T[] | undefined;
}

export function PagedRows<T>({
  list,
  what,
  children,
}: {
  list: PagedList<T>;
  what: string;
  children: (rows: readonly T[]) => ReactNode;
}) {
  if (list.isPending) return <PageSpinner label={`Loading ${what}`} />;
  if (list.isError) return <LoadError what={what} />;
  return (
    <Stack gap="3">
      {children(list.items ?? [])}
      <LoadMoreButton list={list} />
    </Stack>
  );
}
