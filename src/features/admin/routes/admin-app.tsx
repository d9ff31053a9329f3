/**
 * The back office's screens, in one lazy chunk that the player's pages never load: its own Chakra system
 * with the extra components only the back office uses, the sidebar layout, and each admin route's screen
 * (src/app/router.tsx places them under /admin, behind the admin-only guard).
 */
import { ChakraProvider } from '@chakra-ui/react';
import { Outlet } from 'react-router';
import { AdminLayout } from '../components/admin-layout.tsx';
import { adminSystem } from '../lib/admin-system.ts';

export { BooksRoute } from '../books/books-screen.tsx';
export { CreateMatchRoute } from './create-match.tsx';
export { DashboardRoute } from './dashboard.tsx';
export { MatchDetailRoute } from './match-detail.tsx';
export { MatchesRoute } from './matches.tsx';
export { SettingsRoute } from './settings.tsx';
export { TransactionsRoute } from './transactions.tsx';
export { UserDetailRoute } from './user-detail.tsx';
export { UsersRoute } from './users.tsx';
export { WalletManagementRoute } from './wallet-management.tsx';

export function AdminShell() {
  return (
    <ChakraProvider value={adminSystem}>
      <AdminLayout>
        <Outlet />
      </AdminLayout>
    </ChakraProvider>
  );
}
