import { Badge } from '@chakra-ui/react';

/** A tab's count beside its label, once the server has answered (the tab's name stays the spec's label). */
export function TabCount({ count }: { count: number | undefined }) {
  if (count === undefined) return null;
  return (
    <Badge size="sm" variant="subtle" ml="1.5" aria-hidden="true" data-testid="tab-count">
      {count.toLocaleString('en-IN')}
    </Badge>
  );
}
