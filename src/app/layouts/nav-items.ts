import type { IconName } from '@/components/ui/icons.tsx';
import { paths } from '@/config/paths.ts';

/** The header and the mobile bottom bar carry the same four links. */
export const navItems: { label: string; to: string; icon: IconName; end?: boolean }[] = [
  { label: 'Home', to: paths.home, icon: 'home', end: true },
  { label: 'Matches', to: paths.matches, icon: 'trophy' },
  { label: 'My Bets', to: paths.myBets, icon: 'ticket' },
  { label: 'Wallet', to: paths.wallet, icon: 'wallet' },
];
