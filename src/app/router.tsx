/**
 * The route table: every path of the app, once. Each screen is a lazy chunk, and the back office is one
 * chunk of its own that the player's pages never load. Loaders put a screen's reads into the query cache
 * while its chunk downloads (src/app/loaders.ts). The router is created as soon as the entry script runs
 * (main.tsx), before React and Chakra have loaded, so the first screen's chunk and reads start at once.
 */
import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { adminPaths, paths } from '../config/paths.ts';
import { getBankAccountsQueryOptions } from '../features/bank-accounts/api/get-bank-accounts.ts';
import { getBetsQueryOptions, RECENT_BETS } from '../features/bets/api/get-bets.ts';
import { getMatchPositionQueryOptions } from '../features/bets/api/get-match-position.ts';
import { getMatchQueryOptions } from '../features/matches/api/get-match.ts';
import { getMatchesQueryOptions } from '../features/matches/api/get-matches.ts';
import { getTransactionsQueryOptions } from '../features/wallet/api/get-transactions.ts';
import { loadReads, loadUser, pagedRead, read } from './loaders.ts';

/** A route's `lazy`: the named component of a module loaded on demand. */
function screen<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return async () => ({ Component: (await load())[name] as ComponentType });
}

const layouts = () => import('./layout-routes.tsx');
const admin = () => import('../features/admin/admin-app.tsx');
const home = screen(() => import('./routes/home.tsx'), 'HomeRoute');
const notFound = screen(() => import('../features/misc/routes/not-found.tsx'), 'NotFoundRoute');

const homeReads = () =>
  loadReads({
    open: [read(getMatchesQueryOptions('live')), read(getMatchesQueryOptions('upcoming'))],
    player: [pagedRead(getBetsQueryOptions(RECENT_BETS)), pagedRead(getTransactionsQueryOptions())],
  });

function liveMatchReads({ params }: LoaderFunctionArgs) {
  const id = Number(params.id);
  if (!Number.isInteger(id) || id <= 0) return null;
  // the match, and the team the player already backs on it (the slip shows the other one unavailable)
  return loadReads({ player: [read(getMatchQueryOptions(id)), read(getMatchPositionQueryOptions(id))] });
}

const walletReads = () =>
  loadReads({
    player: [pagedRead(getTransactionsQueryOptions({ detailed: true })), read(getBankAccountsQueryOptions())],
  });

const adminRoute = (path: string, name: keyof Awaited<ReturnType<typeof admin>> & string): RouteObject => ({
  path,
  lazy: screen(admin, name),
});

export const routes: RouteObject[] = [
  {
    id: 'root',
    loader: loadUser,
    lazy: screen(layouts, 'AppLayout'),
    children: [
      {
        lazy: screen(layouts, 'PlayerLayout'),
        children: [
          { path: paths.auth, lazy: screen(() => import('../features/auth/routes/auth.tsx'), 'AuthRoute') },
          { path: paths.home, lazy: home, loader: homeReads },
          { path: paths.matches, lazy: home, loader: homeReads },
          {
            lazy: screen(layouts, 'RequirePlayer'),
            children: [
              {
                path: paths.liveMatch(':id'),
                lazy: screen(() => import('./routes/live-match.tsx'), 'LiveMatchRoute'),
                loader: liveMatchReads,
              },
              { path: paths.myBets, lazy: screen(() => import('../features/bets/routes/my-bets.tsx'), 'MyBetsRoute') },
              {
                path: paths.wallet,
                lazy: screen(() => import('./routes/wallet.tsx'), 'WalletRoute'),
                loader: walletReads,
              },
              {
                path: paths.responsibleGambling,
                lazy: screen(
                  () => import('../features/protection/routes/responsible-gambling.tsx'),
                  'ResponsibleGamblingRoute',
                ),
              },
              {
                path: paths.accountSecurity,
                lazy: screen(
                  () => import('../features/account-security/routes/account-security.tsx'),
                  'AccountSecurityRoute',
                ),
              },
            ],
          },
          { path: '*', lazy: notFound },
        ],
      },
      {
        lazy: screen(layouts, 'RequireAdmin'),
        children: [
          {
            path: adminPaths.dashboard,
            lazy: screen(admin, 'AdminShell'),
            children: [
              { index: true, lazy: screen(admin, 'DashboardRoute') },
              adminRoute(adminPaths.matches, 'MatchesRoute'),
              adminRoute(adminPaths.newMatch, 'CreateMatchRoute'),
              adminRoute(adminPaths.match(':id'), 'MatchDetailRoute'),
              adminRoute(adminPaths.users, 'UsersRoute'),
              adminRoute(adminPaths.user(':id'), 'UserDetailRoute'),
              adminRoute(adminPaths.userWallet(':id'), 'WalletManagementRoute'),
              adminRoute(adminPaths.transactions, 'TransactionsRoute'),
              adminRoute(adminPaths.settings, 'SettingsRoute'),
              adminRoute(adminPaths.books, 'BooksRoute'),
              { path: '*', lazy: notFound },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

export type AppRouter = ReturnType<typeof createAppRouter>;

/** Resolves once the router has the first screen's chunks and reads (so the first paint is the page itself). */
export function whenInitialized(router: AppRouter): Promise<void> {
  return new Promise((resolve) => {
    if (router.state.initialized) return resolve();
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}
