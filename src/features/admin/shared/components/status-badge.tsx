import { Badge, type BadgeProps } from '@chakra-ui/react';
import {
  BET_STATUS_PALETTE,
  BETTING_STATE_PALETTE,
  MATCH_STATUS_PALETTE,
  TRANSACTION_STATUS_PALETTE,
  USER_STATUS_PALETTE,
  betStatusLabel,
  capitalize,
} from '../lib/labels.ts';

type Kind = 'match' | 'user' | 'transaction' | 'bet' | 'role' | 'betting';

const palettes: Record<Kind, Record<string, string>> = {
  match: MATCH_STATUS_PALETTE,
  user: USER_STATUS_PALETTE,
  transaction: TRANSACTION_STATUS_PALETTE,
  bet: BET_STATUS_PALETTE,
  role: { admin: 'purple', user: 'gray' },
  betting: BETTING_STATE_PALETTE,
};

/** A coloured status (or role) badge; a placed bet reads 'In Progress', a betting state 'Betting open'. */
export function StatusBadge({ kind, value, ...props }: BadgeProps & { kind: Kind; value: string }) {
  return (
    <Badge colorPalette={palettes[kind][value] ?? 'gray'} variant="subtle" {...props}>
      {kind === 'bet' ? betStatusLabel(value) : kind === 'betting' ? `Betting ${value}` : capitalize(value)}
    </Badge>
  );
}
