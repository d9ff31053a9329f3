/**
 * The route table of spec §2.1. Every screen is its own lazy chunk (route-modules.tsx), so `/` first loads
 * only the shell (≈ 145 KB gzip with main.tsx and boot.ts), and admin code never enters the player bundle.
 */
import { Suspense, lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { PageSpinner } from '../components/ui/page-spinner.tsx';
import { RouteChangeOverlay } from '../components/ui/route-change-overlay.tsx';
import { routePatterns } from '../config/paths.ts';
import { RequireAuth } from '../features/auth/components/require-auth.tsx';
import { PlayerLayout } from './layouts/player-layout.tsx';
import { lazyRoute, routeModules } from './route-modules.tsx';

const HomeRoute = lazyRoute(routeModules.home, 'HomeRoute');
const AuthRoute = lazyRoute(routeModules.auth, 'AuthRoute');
const LiveMatchRoute = lazyRoute(routeModules.liveMatch, 'LiveMatchRoute');
const MyBetsRoute = lazyRoute(routeModules.myBets, 'MyBetsRoute');
const WalletRoute = lazyRoute(routeModules.wallet, 'WalletRoute');
const ResponsibleGamblingRoute = lazyRoute(routeModules.responsibleGambling, 'ResponsibleGamblingRoute');
const AccountSecurityRoute = lazyRoute(routeModules.accountSecurity, 'AccountSecurityRoute');
const NotFoundRoute = lazyRoute(routeModules.notFound, 'NotFoundRoute');
const AdminApp = lazy(() => import('../features/admin/routes/admin-app.tsx'));

export function AppRoutes() {
  return (
    <>
      <RouteChangeOverlay />
      <Routes>
        <Route element={<PlayerLayout />}>
          <Route path={routePatterns.auth} element={<AuthRoute />} />
          <Route path={routePatterns.home} element={<HomeRoute />} />
          <Route path={routePatterns.matches} element={<HomeRoute />} />
          <Route element={<RequireAuth />}>
            <Route path={routePatterns.liveMatch} element={<LiveMatchRoute />} />
            <Route path={routePatterns.myBets} element={<MyBetsRoute />} />
            <Route path={routePatterns.wallet} element={<WalletRoute />} />
            <Route path={routePatterns.responsibleGambling} element={<ResponsibleGamblingRoute />} />
            <Route path={routePatterns.accountSecurity} element={<AccountSecurityRoute />} />
          </Route>
          <Route path={routePatterns.notFound} element={<NotFoundRoute />} />
        </Route>
        <Route element={<RequireAuth adminOnly />}>
          <Route
            path={routePatterns.admin}
            element={
              <Suspense fallback={<PageSpinner />}>
                <AdminApp />
              </Suspense>
            }
          />
        </Route>
      </Routes>
    </>
  );
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
