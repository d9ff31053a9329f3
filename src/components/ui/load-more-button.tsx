import { Button } from '@chakra-ui/react';

/** What Load More needs of a paged list (src/lib/paged-query.ts). */
export interface MoreRows {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** 'Load More' under a paged list: fetches the next page from the server; hidden on the last page. */
export function LoadMoreButton({ list }: { list: MoreRows }) {
  if (!list.hasNextPage) return null;
  return (
    <Button
      variant="outline"
      size="sm"
      loading={list.isFetchingNextPage}
      onClick={() => void list.fetchNextPage()}
      alignSelf="center"
    >
      Load More
    </Button>
  );
}
