import { Badge } from '@chakra-ui/react';
import type { BetStatus } from '@/domain/limits.ts';

const labels: Record<BetStatus, { label: string; palette: string }> = {
  placed: { label: 'In Progress', palette: 'blue' },
  won: { label: 'Won', palette: 'green' },
  lost: { label: 'Lost', palette: 'red' },
  cancelled: { label: 'Cancelled', palette: 'gray' },
};

/** Placed is shown as 'In Progress'. */
export function BetStatusBadge({ status }: { status: BetStatus }) {
  const { label, palette } = labels[status] ?? { label: status, palette: 'gray' };
  return (
    <Badge colorPalette={palette} variant="subtle">
      {label}
    </Badge>
  );
}
