/**
 * The back office (spec §2.8–2.16): its own Chakra system (all recipes, loaded only in this lazy chunk),
 * the sidebar layout and the nested admin routes. The router guards /admin/* with RequireAuth adminOnly.
 */
import { ChakraProvider } from '@chakra-ui/react';
import { Route, Routes } from 'react-router';
import { NotFoundRoute } from '../../misc/routes/not-found.tsx';
import { AdminLayout } from '../components/admin-layout.tsx';
import { adminSystem } from '../lib/admin-system.ts';
import { CreateMatchRoute } from './create-match.tsx';
import { DashboardRoute } from './dashboard.tsx';
import { MatchDetailRoute } from './match-detail.tsx';
import { MatchesRoute } from './matches.tsx';
import { SettingsRoute } from './settings.tsx';
import { TransactionsRoute } from './transactions.tsx';
import { UserDetailRoute } from './user-detail.tsx';
import { UsersRoute } from './users.tsx';
import { WalletManagementRoute } from './wallet-management.tsx';

export function AdminRoutes() {
  return (
    <Routes>
      <Route index element={<DashboardRoute />} />
      <Route path="matches" element={<MatchesRoute />} />
      <Route path="matches/new" element={<CreateMatchRoute />} />
      <Route path="matches/:id" element={<MatchDetailRoute />} />
      <Route path="users" element={<UsersRoute />} />
      <Route path="users/:id" element={<UserDetailRoute />} />
      <Route path="users/:id/wallet" element={<WalletManagementRoute />} />
      <Route path="transactions" element={<TransactionsRoute />} />
      <Route path="settings" element={<SettingsRoute />} />
      <Route path="*" element={<NotFoundRoute />} />
    </Routes>
  );
}

export default function AdminApp() {
  return (
    <ChakraProvider value={adminSystem}>
      <AdminLayout>
        <AdminRoutes />
      </AdminLayout>
    </ChakraProvider>
  );
}
