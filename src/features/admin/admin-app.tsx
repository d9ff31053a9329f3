/**
 * The back office's screens, in one lazy chunk that the player's pages never load: its own Chakra system
 * with the extra components only the back office uses, the sidebar layout, and each admin route's screen
 * (src/app/router.tsx places them under /admin, behind the admin-only guard).
 */
import { ChakraProvider } from '@chakra-ui/react';
import { Outlet } from 'react-router';
import { AdminLayout } from './shell/admin-layout.tsx';
import { adminSystem } from './shell/admin-system.ts';

export { BooksRoute } from './books/routes/books-screen.tsx';
export { CreateMatchRoute } from './matches/routes/create-match.tsx';
export { DashboardRoute } from './dashboard/routes/dashboard.tsx';
export { MatchDetailRoute } from './matches/routes/match-detail.tsx';
export { MatchesRoute } from './matches/routes/matches.tsx';
export { SettingsRoute } from './settings/routes/settings.tsx';
export { TransactionsRoute } from './money/routes/transactions.tsx';
export { UserDetailRoute } from './users/routes/user-detail.tsx';
export { UsersRoute } from './users/routes/users.tsx';
export { WalletManagementRoute } from './money/routes/wallet-management.tsx';

export function AdminShell() {
  return (
    <ChakraProvider value={adminSystem}>
      <AdminLayout>
        <Outlet />
      </AdminLayout>
    </ChakraProvider>
  );
}
